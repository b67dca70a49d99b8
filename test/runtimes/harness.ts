// What the runtime tests share: the simulator, started by Node on loopback (the clients under test
// run elsewhere: Bun, Deno, an edge VM, a bundle), the input of test/runtimes/flow.mjs, and what
// every runtime must have seen. The clients import the built SDK (dist/) by its package name:
// `npm test` builds first; run `npm run build` before running these files alone.
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { createV2TestSigner } from 'match-venue/webhooks/testing';
import { expect } from 'vitest';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const here = join(root, 'test/runtimes');

/** The exact versions of the runtimes (test/package.json), which the tests check they really ran. */
export const pinned: Record<string, string> = JSON.parse(
  readFileSync(join(root, 'test/package.json'), 'utf8'),
).devDependencies;

export function assertBuilt(): void {
  if (!existsSync(join(root, 'dist/index.js')) || !existsSync(join(root, 'dist/webhooks/index.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test builds first)');
  }
}

/**
 * A bot's folder outside the repository: its own package.json, the SDK installed as
 * node_modules/match-venue (a link to this repository, so its package.json `exports` lead to dist/),
 * and the client files. Outside, so that no runtime applies the repository's tsconfig paths (which
 * map `match-venue` to src/, and which Bun and esbuild honour).
 */
export function clientFolder(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'mv-runtime-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bot', private: true, type: 'module' }));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules/match-venue'), 'dir');
  for (const file of ['client.mjs', 'flow.mjs']) copyFileSync(join(here, file), join(dir, file));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunningSimulator {
  url: string;
  close(): Promise<void>;
}

/** A simulator on a manual clock (auctions clear only through /_sim/auctions/clear). */
export async function startSimulator(): Promise<RunningSimulator> {
  const sim = createSimulator({ clock: 'manual' });
  const running = await sim.listen();
  return { url: running.url, close: () => sim.close() };
}

const sns: { signingCertificatePem: string; messages: { SigningCertURL: string }[] } = JSON.parse(
  readFileSync(join(root, 'test/fixtures/sns/aws-sns-notifications.json'), 'utf8'),
);

/** The input of runFlow: parties, the genuine SNS notifications, and signed v2 deliveries. */
export function flowInput(baseUrl: string, stream: boolean) {
  const signer = createV2TestSigner();
  const deliveries = [
    signer.notification({ notificationType: 'transfers.completed', notification: { id: 't1' } }),
    signer.notification({ notificationType: 'payments.completed', notification: { amount: '10.00' } }),
  ].map(({ body, headers }) => ({ body, headers }));
  return {
    baseUrl,
    stream,
    burner: SEEDED.burner,
    minter: { apiKey: SEEDED.minter.apiKey },
    sns: {
      certificateUrl: sns.messages[0]!.SigningCertURL,
      certificatePem: sns.signingCertificatePem,
      messages: sns.messages,
    },
    v2: { record: signer.publicKeyRecord, deliveries },
  };
}

/** Runs a client process with the flow's input in MV_RUNTIME_INPUT; its last stdout line is the result. */
export function runClient(
  cwd: string,
  command: string,
  args: string[],
  input: object,
  env: Record<string, string> = {},
): Promise<FlowResult> {
  return new Promise((done, fail) => {
    execFile(
      command,
      args,
      {
        cwd,
        timeout: 25_000,
        env: { ...process.env, ...env, NO_COLOR: '1', MV_RUNTIME_INPUT: JSON.stringify(input) },
      },
      (error, stdout, stderr) => {
        if (error) fail(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
        else done(JSON.parse(stdout.trim().split('\n').at(-1) ?? 'null'));
      },
    );
  });
}

export interface FlowResult {
  runtime?: { name: string; version: string };
  /** Where `match-venue` resolved from. */
  sdk?: string;
  subscribed?: boolean;
  placed: string[];
  clearStatus: number;
  filled: { orderType: string; status: string; filledAmount: unknown; clearingFeeBps: string }[];
  streamEvent?: { event: string; status: string; filledAmount: unknown };
  webhooks: { v1: string[]; v2: string[] };
}

const usd = (amount: string) => ({ amount, currency: 'USD' });

/**
 * What a client sees on every runtime: both orders accepted pending; the clear (BURN 1000 at a 6 bps
 * limit against MINT 600 at 4 bps) fills 600.00 at 5.00 bps, the MINT whole and the BURN in part;
 * the burner's stream delivers that fill; each genuine SNS notification and each v2 delivery
 * verifies, and the same with one added character does not.
 */
export function expectFlow(result: FlowResult, streamed: boolean): void {
  expect(result.placed).toEqual(['pending', 'pending']);
  expect(result.clearStatus).toBe(200);
  expect(result.filled).toEqual([
    { orderType: 'BURN', status: 'partial_fill', filledAmount: usd('600.00'), clearingFeeBps: '5.00' },
    { orderType: 'MINT', status: 'filled', filledAmount: usd('600.00'), clearingFeeBps: '5.00' },
  ]);
  if (streamed) {
    expect(result.subscribed).toBe(true);
    expect(result.streamEvent).toEqual({
      event: 'order.updated',
      status: 'settling',
      filledAmount: usd('600.00'),
    });
  }
  const pairs = (n: number) =>
    Array.from({ length: n }, () => ['verified', 'WEBHOOK_SIGNATURE_INVALID']).flat();
  expect(result.webhooks).toEqual({ v1: pairs(4), v2: pairs(2) });
}
