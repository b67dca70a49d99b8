// A CommonJS suite in plain JavaScript (babel-jest, Jest's default transform): every entry through
// require, as such a suite loads it, and no flag. No msw here: msw 2.11 and later depend on
// packages published only as ES modules (rettime, until-async, @open-draft/deferred-promise), which
// Jest's CommonJS mode cannot require before Node 24.9 unless they are compiled to CommonJS, and
// babel-jest has no such plugin by default; the ts-jest suite compiles them and runs the msw check.
const sdk = require('match-venue');
const simulator = require('match-venue/simulator');
const testing = require('match-venue/testing');
const { venueChecks } = require('./venue-checks.cjs');

venueChecks({ sdk, simulator, testing });
