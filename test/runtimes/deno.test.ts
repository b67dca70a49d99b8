// The examples' core flow and webhook verification under Deno (the npm package `deno`, an exact
// devDependency whose binary comes in a platform package): test/runtimes/client.mjs against the
// simulator Node runs on loopback, the SDK from dist/ by its package name (Deno resolves it through
// package.json and node_modules, as Node does).
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

it('runs the core flow, streams the fill and verifies webhooks on Deno', async () => {
  const result = await runClient(
    folder.dir,
    join(root, 'node_modules/.bin/deno'),
    // Only what the client needs: its input and the SDK's settings (env), the simulator (net),
    // the SDK and its dependencies (read); --no-remote: nothing is fetched (the test is offline).
    [
      'run',
      '--no-remote',
      '--allow-env',
      '--allow-net=127.0.0.1',
      `--allow-read=${root},${folder.dir}`,
      'client.mjs',
    ],
    flowInput(sim.url, true),
    { DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' },
  );
  expect(result.runtime).toEqual({ name: 'deno', version: pinned.deno });
  // The SDK as built: the package's exports lead to dist/ (through the link, to this repository).
  expect(result.sdk).toBe(pathToFileURL(join(root, 'dist/index.js')).href);
  expectFlow(result, true);
}, 30_000);
