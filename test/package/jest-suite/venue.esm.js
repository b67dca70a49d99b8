// An ES module suite in plain JavaScript ("type": "module", Jest's native ESM): every entry through
// import. Jest itself runs ES module test files only under --experimental-vm-modules (on Node
// before 24.9), whatever they import; the package asks for nothing more.
import * as sdk from 'match-venue';
import * as handlers from 'match-venue/msw';
import * as simulator from 'match-venue/simulator';
import * as testing from 'match-venue/testing';
import * as node from 'msw/node';
import { venueChecks } from './venue-checks.cjs';

venueChecks({ sdk, simulator, testing, msw: { handlers, node } });
