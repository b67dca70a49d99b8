// The store's writer thread from the built package: a Worker started from dist/simulator/
// store-writer.js (src/simulator/store/writer-entry.ts finds it from the ESM and the CommonJS
// build, and from the CLI), and a clear refusal at creation where that file is missing. Reads dist/
// as built: `npm test` builds first; run `npm run build` when running this file alone.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkRows } from '../../src/simulator/store/order-pack.js';
import { BASE, request, track, useCliCleanup, waitFor } from '../simulator/cli-process.js';

useCliCleanup();
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(root, 'dist');
const dir = mkdtempSync(join(tmpdir(), 'match-venue-dist-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const Sqlite = createRequire(import.meta.url)('better-sqlite3');
const NOISE = 'TEST_API_KEY:noise-0001:sim';

/** How many of the file's stored orders have this id (each chunk read as the store reads it). */
function rowsInFile(file: string, id: string): number {
  const db = new Sqlite(file, { readonly: true });
  try {
    const chunks = db.prepare('SELECT orders FROM chunks').pluck().all() as Uint8Array[];
    return chunks.flatMap((c) => chunkRows(c)).filter((row) => row[0] === id).length;
  } finally {
    db.close();
  }
}

/**
 * A snippet that trades 13 busy auctions on a store keeping 10 s in memory, and prints the first
 * auction's first order of noise-0001 as getOrder answered it once the file held it (a listing
 * waits until the writer committed every eviction, so the order is read from the file).
 */
const trade = (file: string) =>
  `const sim = s.createSimulator({ seed: 1, clock: 'manual', market: 'busy', store: { file: ${JSON.stringify(file)}, retainMs: 10000 } });
   const get = async (path) => {
     const res = await sim.handle(new Request('http://sim' + path, { headers: { authorization: 'Bearer ${NOISE}' } }));
     return { status: res.status, body: await res.json() };
   };
   sim.advance(10000);
   const id = (await get('/v1/match/orders?pageSize=1')).body.data.orders[0].orderId;
   for (let i = 0; i < 12; i++) sim.advance(10000);
   const listed = (await get('/v1/match/orders?pageSize=1')).status;
   const got = await get('/v1/match/orders/' + id);
   await sim.close();
   console.log(JSON.stringify({ id, listed, status: got.status, orderId: got.body.data.orderId }));`;

/** Runs `args` with node from the repo root (`match-venue` resolves to dist/), and its stdout's JSON. */
function node(args: string[], env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  return JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', env }).trim());
}

describe('the store from the built package', () => {
  it('ships its writer thread as dist/simulator/store-writer.js', () => {
    expect(existsSync(join(dist, 'simulator/store-writer.js'))).toBe(true);
  });

  // Started as a CommonJS script, a thread that inherited --input-type=module (a flag, or
  // NODE_OPTIONS) read it as an ES module and died before it could report: the file is an ES
  // module whatever flags started node.
  it('writes evicted orders from its thread and reads them back, from the ESM and the CommonJS build, whatever flags started node', () => {
    const esm = join(dir, 'esm.db');
    const env = join(dir, 'env.db');
    const cjs = join(dir, 'cjs.db');
    const results = [
      node(['--input-type=module', '-e', `const s = await import('match-venue/simulator'); ${trade(esm)}`]),
      // The same flag through NODE_OPTIONS, which a worker thread reads too.
      node(['-e', `const s = await import('match-venue/simulator'); ${trade(env)}`], {
        ...process.env,
        NODE_OPTIONS: '--input-type=module',
      }),
      node(['-e', `const s = require('match-venue/simulator'); (async () => { ${trade(cjs)} })();`]),
    ];
    for (const [i, file] of [esm, env, cjs].entries()) {
      const { id, ...answers } = results[i] as { id: string };
      expect(answers, file).toEqual({ listed: 200, status: 200, orderId: id });
      expect(rowsInFile(file, id), file).toBe(1);
    }
  });

  it('the built CLI (the bin) answers an order it evicted to its --store file', async () => {
    const file = join(dir, 'cli.db');
    const flags = ['--clock', 'manual', '--start-time', '2026-01-01T00:00:00Z', '--market', 'busy'];
    const proc = spawn(
      process.execPath,
      [join(dist, 'simulator/cli.js'), '--store', file, '--port', '0', '--no-ui', '-q', ...flags],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    track(proc);
    const out = { text: '' };
    proc.stdout.on('data', (b: Buffer) => {
      out.text += b.toString();
    });
    const base = (await waitFor(out, proc, BASE))[1] as string;
    await request(base, 'POST', '/_sim/clock/advance', { body: { ms: 10_000 } });
    const listed = await request(base, 'GET', '/v1/match/orders?pageSize=1', { key: NOISE });
    const id = (listed.body.data as { orders: { orderId: string }[] }).orders[0]?.orderId as string;
    // Past the 60 s window: the order leaves memory for the file; the listing waits for the writer.
    await request(base, 'POST', '/_sim/clock/advance', { body: { ms: 120_000 } });
    expect((await request(base, 'GET', '/v1/match/orders?pageSize=1', { key: NOISE })).status).toBe(200);
    const got = await request(base, 'GET', `/v1/match/orders/${id}`, { key: NOISE });
    expect([got.status, got.body.data?.orderId]).toEqual([200, id]);
    const exited = new Promise((done) => proc.once('exit', done));
    proc.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(rowsInFile(file, id)).toBe(1);
  });

  // A copy of dist/ without the thread's file, inside the repo so that its imports resolve from
  // node_modules as dist/'s do: a build that lost the file, or a bundle that left it behind.
  it('without its thread file, refuses the store at creation, naming the file and the command that builds it', () => {
    const copy = mkdtempSync(join(root, '.dist-without-writer-'));
    try {
      cpSync(dist, copy, { recursive: true, filter: (src) => !src.includes('store-writer.js') });
      const missing = join(copy, 'simulator/store-writer.js');
      const file = join(dir, 'missing.db');
      const create = `try { s.createSimulator({ store: ${JSON.stringify(file)} }); console.log('{}'); }
        catch (err) { console.log(JSON.stringify({ name: err.name, message: err.message })); }`;
      const esm = node([
        '--input-type=module',
        '-e',
        `const s = await import(${JSON.stringify(`${join(copy, 'simulator/index.js')}`)}); ${create}`,
      ]);
      const cjs = node([
        '-e',
        `const s = require(${JSON.stringify(join(copy, 'simulator/index.cjs'))}); ${create}`,
      ]);
      const message =
        `store cannot start its writer thread: ${missing} is missing. It is built with the package: run ` +
        '`npm run build` in a checkout of match-venue, or reinstall match-venue if it came from a registry.';
      expect(esm).toEqual({ name: 'StoreUnavailableError', message });
      expect(cjs).toEqual({ name: 'StoreUnavailableError', message });
      // The CLI refuses it as it refuses any store it cannot open: one line, exit 2.
      const cli = spawnSyncStatus([join(copy, 'simulator/cli.js'), '--store', file, '--port', '0', '-q']);
      expect(cli).toEqual({ status: 2, stderr: `match-venue-sim: ${message}\n` });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

/** Runs node with `args` to its end: its exit status and stderr. */
function spawnSyncStatus(args: string[]): { status: number | null; stderr: string } {
  try {
    execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: 'pipe' });
    return { status: 0, stderr: '' };
  } catch (err) {
    const { status, stderr } = err as { status: number | null; stderr: string };
    return { status, stderr };
  }
}
