// The examples' core flow and webhook verification under Bun (the npm package `bun`, an exact
// devDependency whose binary comes in a platform package): test/runtimes/client.mjs against the
// simulator Node runs on loopback, the SDK from dist/ by its package name.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  assertBuilt,
  clientFolder,
  expectFlow,
  flowInput,
  pinned,
  type RunningSimulator,
  root,
  runClient,
  startSimulator,
} from './harness.js';

let sim: RunningSimulator;
const folder = clientFolder();

beforeAll(async () => {
  assertBuilt();
  sim = await startSimulator();
});

afterAll(async () => {
  await sim?.close();
  folder.remove();
});

it('runs the core flow, streams the fill and verifies webhooks on Bun', async () => {
  // --no-install: never fetch a package at run time (the test is offline); DO_NOT_TRACK: no telemetry.
  const result = await runClient(
    folder.dir,
    join(root, 'node_modules/.bin/bun'),
    ['--no-install', 'client.mjs'],
    flowInput(sim.url, true),
    { DO_NOT_TRACK: '1' },
  );
  expect(result.runtime).toEqual({ name: 'bun', version: pinned.bun });
  // The SDK as built: the package's exports lead to dist/ (through the link, to this repository).
  expect(result.sdk).toBe(pathToFileURL(join(root, 'dist/index.js')).href);
  expectFlow(result, true);
}, 30_000);
