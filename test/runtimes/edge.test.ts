// The main entry and match-venue/webhooks on a fetch-only edge runtime (@edge-runtime/vm, Vercel's
// Edge Runtime: web APIs only, no process, no Node built-ins, no code generation), against the
// simulator Node runs on loopback. An edge deployment is a bundle, so the SDK is bundled from dist/
// by its package name for the browser platform: esbuild refuses any Node built-in in the static
// graph, which is the first check. Dynamic imports stay in the bundle and fail in the VM: the client
// falls back to the VM's fetch and WebSocket, the webhook verifiers to WebCrypto.
import { EdgeVM } from '@edge-runtime/vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  clientFolder,
  expectFlow,
  type FlowResult,
  flowInput,
  pinned,
  type RunningSimulator,
  startSimulator,
} from './harness.js';

let sim: RunningSimulator;
let bundle: string;
let inputs: string[];
const folder = clientFolder();

const ENTRY = `
import * as sdk from 'match-venue';
import * as webhooks from 'match-venue/webhooks';
import * as webhookTesting from 'match-venue/webhooks/testing';
import { runFlow } from './flow.mjs';

// fetch given: the client's option, the runtime's own fetch behind it.
globalThis.runEdgeFlow = (input, giveFetch) =>
  runFlow(sdk, webhooks, { ...input, clientOptions: giveFetch ? { fetch: (url, init) => fetch(url, init) } : {} });
// Counts the sockets opened through the runtime's WebSocket (the stream's client where ws is absent).
let sockets = 0;
globalThis.WebSocket = class extends WebSocket {
  constructor(url, protocols) {
    super(url, protocols);
    sockets += 1;
  }
};
globalThis.edgeSockets = () => sockets;
// The test signers need node:crypto, which an edge runtime lacks: a clear refusal, not a crash.
globalThis.edgeSigner = () => {
  try {
    webhookTesting.createV2TestSigner();
    return 'created';
  } catch (error) {
    return error.code;
  }
};
`;

beforeAll(async () => {
  assertBuilt();
  // A failed build (a Node built-in in the static graph: the browser platform cannot resolve one)
  // throws here with esbuild's messages.
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: folder.dir, sourcefile: 'edge-entry.mjs' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  bundle = result.outputFiles[0]!.text;
  inputs = Object.keys(result.metafile.inputs);
  sim = await startSimulator();
}, 30_000);

afterAll(async () => {
  await sim?.close();
  folder.remove();
});

function edgeVm(): EdgeVM {
  const vm = new EdgeVM();
  vm.evaluate(bundle);
  return vm;
}

describe('on an edge runtime (@edge-runtime/vm)', () => {
  it('is what it claims: web APIs only', () => {
    expect(pinned['@edge-runtime/vm']).toBe('5.0.0');
    // Asked of the VM itself: inside a bundle esbuild would answer `typeof require` with its own shim.
    const globals = '({ runtime: EdgeRuntime, process: typeof process, require: typeof require })';
    expect(new EdgeVM().evaluate(globals)).toEqual({
      runtime: 'edge-runtime',
      process: 'undefined',
      require: 'undefined',
    });
  });

  it.each([
    ['with fetch given', true],
    ['with no transport option (the runtime fetch, as no Node transport exists)', false],
  ])(
    'runs the core flow, streams the fill and verifies webhooks %s',
    async (_name, giveFetch) => {
      const input = flowInput(sim.url, true);
      const vm = edgeVm();
      const result: FlowResult = await vm.evaluate(`runEdgeFlow(${JSON.stringify(input)}, ${giveFetch})`);
      expectFlow(JSON.parse(JSON.stringify(result)), true);
      // The stream went through the runtime's own WebSocket: there is no ws to load.
      expect(vm.evaluate('edgeSockets()')).toBe(1);
    },
    20_000,
  );

  it('refuses to create a test signer without node:crypto, with a stable code', () => {
    expect(edgeVm().evaluate('edgeSigner()')).toBe('WEBHOOK_CONFIG_INVALID');
  });
});

it('bundles the built SDK with none of undici, ws, jose, msw or the simulator', () => {
  expect(inputs).toContain('dist/index.js');
  expect(inputs).toContain('dist/webhooks/index.js');
  expect(inputs.filter((f) => f.startsWith('src/'))).toEqual([]);
  expect(inputs.filter((f) => /node_modules\/(undici|ws|jose|msw)\//.test(f))).toEqual([]);
  expect(inputs.filter((f) => /dist\/(simulator|testing|msw)\//.test(f))).toEqual([]);
});
