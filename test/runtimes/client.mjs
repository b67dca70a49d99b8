// Bun and Deno run this file, from a bot's folder (harness.ts, clientFolder), as a client of the
// simulator the vitest side started on loopback: the SDK comes from the built dist/ through the
// package name, the input from MV_RUNTIME_INPUT.
import * as sdk from 'match-venue';
import * as webhooks from 'match-venue/webhooks';
import { runFlow } from './flow.mjs';

const runtime = globalThis.Bun
  ? { name: 'bun', version: globalThis.Bun.version }
  : globalThis.Deno
    ? { name: 'deno', version: globalThis.Deno.version.deno }
    : { name: 'node', version: process.versions.node };
const input = JSON.parse(process.env.MV_RUNTIME_INPUT);
const result = await runFlow(sdk, webhooks, input);
console.log(JSON.stringify({ runtime, sdk: import.meta.resolve('match-venue'), ...result }));
