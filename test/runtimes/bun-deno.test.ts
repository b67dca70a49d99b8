// The examples' core flow and webhook verification under Bun and Deno (the npm packages `bun` and
// `deno`, exact devDependencies of test/package.json whose binaries come in platform packages): test/runtimes/client.mjs
// against the simulator Node runs on loopback, the SDK from dist/ by its package name (Deno resolves
// it through package.json and node_modules, as Node does).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

interface Runtime {
  name: 'bun' | 'deno';
  args(folder: string): string[];
  env: Record<string, string>;
}

const runtimes: Runtime[] = [
  {
    name: 'bun',
    // --no-install: never fetch a package at run time (the test is offline).
    args: () => ['--no-install', 'client.mjs'],
    env: { DO_NOT_TRACK: '1' },
  },
  {
    name: 'deno',
    // Only what the client needs: its input and the SDK's settings (env), the simulator (net),
    // the SDK and its dependencies (read); --no-remote: nothing is fetched (the test is offline).
    args: (folder) => [
      'run',
      '--no-remote',
      '--allow-env',
      '--allow-net=127.0.0.1',
      `--allow-read=${root},${folder}`,
      'client.mjs',
    ],
    env: { DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' },
  },
];

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

describe.each(runtimes)('$name', (runtime) => {
  it('runs the core flow, streams the fill and verifies webhooks', async () => {
    const result = await runClient(
      folder.dir,
      join(root, `test/node_modules/.bin/${runtime.name}`),
      runtime.args(folder.dir),
      flowInput(sim.url, true),
      runtime.env,
    );
    expect(result.runtime).toEqual({ name: runtime.name, version: pinned[runtime.name] });
    // The SDK as built: the package's exports lead to dist/ (through the link, to this repository).
    expect(result.sdk).toBe(pathToFileURL(join(root, 'dist/index.js')).href);
    expectFlow(result, true);
  }, 30_000);
});
