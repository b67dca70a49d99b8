/**
 * A long clock jump with the background market on:
 * `npx tsx bench/advance-busy.ts [--root DIR] [--ms 1800000] [--market busy] [--store]`.
 *
 * Starts the simulator (`DIR/src/simulator`, default this checkout; give an older checkout for a
 * before figure) as an HTTP server in a child process on a manual clock with the market preset
 * (and, with `--store`, a store in a temporary file, removed after), opens auction 1, then sends
 * `POST /_sim/clock/advance {ms}` and meanwhile a `GET /v1/match/account` every 10 ms, one at a
 * time on one connection (each sent 10 ms after the one before was, or as soon as it is answered).
 * Reports the jump's wall time, the longest, p99 and median wait of those GETs, the server's RSS before
 * and its peak, and where the jump ended (auction, orders held in memory).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sleep } from './chaos/support.js';
import { message } from './child-message.js';

const BURNER_KEY = 'TEST_API_KEY:burner:sim';
const GET_EVERY_MS = 10;

export interface AdvanceBusyResult {
  root: string;
  market: string;
  ms: number;
  store: boolean;
  advanceStatus: number;
  advanceWallMs: number;
  gets: number;
  longestGetMs: number;
  medianGetMs: number;
  p99GetMs: number;
  /** GETs that waited more than 100 ms. */
  getsOver100Ms: number;
  rssBeforeMb: number;
  serverPeakRssMb: number;
  currentAuctionId: number;
  ordersInMemory: number;
}

interface ServeOptions {
  root: string;
  market: string;
  store: string | undefined;
}

interface ChildSim {
  listen(o: { port: number }): Promise<{ url: string }>;
  close(): Promise<void>;
  engine: { state: { orders: { size: number } } };
}

/** The child: a simulator on a manual clock with the market, listening; answers `rss` and `orders`. */
async function serve(o: ServeOptions): Promise<void> {
  const mod = (await import(pathToFileURL(`${o.root}/src/simulator/index.ts`).href)) as {
    createSimulator(options: object): ChildSim;
  };
  const sim = mod.createSimulator({
    clock: 'manual',
    market: o.market,
    seed: 1,
    startTime: '2026-01-01T00:00:00Z',
    ...(o.store === undefined ? {} : { store: o.store }),
  });
  const { url } = await sim.listen({ port: 0 });
  process.on('message', (m) => {
    if (m === 'rss')
      process.send?.({
        rssMb: process.memoryUsage().rss / 1e6,
        peakMb: process.resourceUsage().maxRSS / 1024,
        orders: sim.engine.state.orders.size,
      });
    if (m === 'close') void sim.close().then(() => process.send?.({ closed: true }));
  });
  process.send?.({ url });
}

interface Rss {
  rssMb: number;
  peakMb: number;
  orders: number;
}

function rss(child: ChildProcess): Promise<Rss> {
  const answer = message(child, (m) => ((m as Rss).rssMb === undefined ? undefined : (m as Rss)));
  child.send('rss');
  return answer;
}

export async function benchAdvanceBusy(
  options: { root?: string; ms?: number; market?: string; store?: boolean } = {},
): Promise<AdvanceBusyResult> {
  const root = options.root ?? fileURLToPath(new URL('..', import.meta.url));
  const ms = options.ms ?? 1_800_000;
  const market = options.market ?? 'busy';
  const dir = options.store ? mkdtempSync(join(tmpdir(), 'match-venue-advance-busy-')) : undefined;
  const args = ['--serve', root, '--market', market, ...(dir ? ['--store-file', join(dir, 'store.db')] : [])];
  const child = fork(fileURLToPath(import.meta.url), args, {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const base = await message(child, (m) => (m as { url?: string }).url);
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // Auction 1 opens and the market places in it, before the clock is read.
    await (await post('/_sim/clock/advance', { ms: 0 })).arrayBuffer();
    const before = await rss(child);
    const t0 = performance.now();
    let done = false;
    const advance = post('/_sim/clock/advance', { ms }).then(async (res) => {
      await res.arrayBuffer();
      done = true;
      return { status: res.status, at: performance.now() };
    });
    const waits: number[] = [];
    while (!done) {
      const sent = performance.now();
      const res = await fetch(`${base}/v1/match/account`, {
        headers: { authorization: `Bearer ${BURNER_KEY}` },
      });
      await res.arrayBuffer();
      waits.push(performance.now() - sent);
      const next = sent + GET_EVERY_MS - performance.now();
      if (next > 0 && !done) await sleep(next);
    }
    const finished = await advance;
    const after = await rss(child);
    const state = (await (await fetch(`${base}/_sim/state`)).json()) as {
      data: { auction: { auctionId: number } };
    };
    const sorted = [...waits].sort((a, b) => a - b);
    const closed = message(child, (m) => (m as { closed?: boolean }).closed);
    child.send('close');
    await closed;
    return {
      root,
      market,
      ms,
      store: dir !== undefined,
      advanceStatus: finished.status,
      advanceWallMs: finished.at - t0,
      gets: waits.length,
      longestGetMs: sorted.at(-1) ?? 0,
      medianGetMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
      p99GetMs: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
      getsOver100Ms: waits.filter((w) => w > 100).length,
      rssBeforeMb: before.rssMb,
      serverPeakRssMb: after.peakMb,
      currentAuctionId: state.data.auction.auctionId,
      ordersInMemory: after.orders,
    };
  } finally {
    child.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
if (isMain && arg('--serve') !== undefined) {
  await serve({
    root: arg('--serve') as string,
    market: arg('--market') ?? 'busy',
    store: arg('--store-file'),
  });
} else if (isMain) {
  const r = await benchAdvanceBusy({
    ...(arg('--root') ? { root: arg('--root') } : {}),
    ...(arg('--ms') ? { ms: Number(arg('--ms')) } : {}),
    ...(arg('--market') ? { market: arg('--market') } : {}),
    store: process.argv.includes('--store'),
  });
  console.log(`node ${process.version}, ${new Date().toISOString()}`);
  console.log(
    `${r.root}: advance ${r.ms} ms, market ${r.market}${r.store ? ', store' : ''} -> ${r.advanceStatus} in ` +
      `${r.advanceWallMs.toFixed(0)} ms; ${r.gets} GETs every ${GET_EVERY_MS} ms: longest wait ` +
      `${r.longestGetMs.toFixed(0)} ms, p99 ${r.p99GetMs.toFixed(0)} ms, median ${r.medianGetMs.toFixed(1)} ms, ` +
      `${r.getsOver100Ms} over 100 ms; server RSS ` +
      `${r.rssBeforeMb.toFixed(0)} MB before, peak ${r.serverPeakRssMb.toFixed(0)} MB; now auction ` +
      `${r.currentAuctionId}, ${r.ordersInMemory} orders in memory`,
  );
}
