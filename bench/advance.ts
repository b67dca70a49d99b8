/**
 * A long clock jump under load: `npx tsx bench/advance.ts [--root DIR] [--orders 50] [--ms 86400000]`.
 *
 * Starts the simulator (`DIR/src/simulator`, default this checkout; give an older checkout for a
 * before figure) as an HTTP server in a child process, rests `--orders` BURN orders with
 * `postFillAction: roll` and no counterparty, then sends `POST /_sim/clock/advance {ms}` and, right
 * behind it, `GET /v1/match/account`. Reports the advance's wall time, how long the concurrent GET
 * waited, the server's peak RSS, and what the jump left (current auction, orders listed).
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { message } from './child-message.js';

const BURNER = {
  apiKey: 'TEST_API_KEY:burner:sim',
  walletId: '10000000-0000-4000-8000-00000000a001',
  fiatAccountId: '10000000-0000-4000-8000-00000000f001',
};

export interface AdvanceBenchResult {
  root: string;
  orders: number;
  ms: number;
  advanceStatus: number;
  advanceWallMs: number;
  /** A GET sent right after the advance: its latency is how long the simulator was blocked. */
  concurrentGetMs: number;
  serverPeakRssMb: number;
  currentAuctionId: number;
  ordersListed: number;
}

/** The child: a simulator on a manual clock, listening; answers `rss` with its peak RSS. */
async function serve(root: string): Promise<void> {
  const mod = (await import(pathToFileURL(`${root}/src/simulator/index.ts`).href)) as {
    createSimulator(o: { clock: 'manual' }): { listen(o: { port: number }): Promise<{ url: string }> };
  };
  const sim = mod.createSimulator({ clock: 'manual' });
  const { url } = await sim.listen({ port: 0 });
  process.on('message', (m) => {
    if (m === 'rss') process.send?.({ rssMb: process.resourceUsage().maxRSS / 1024 });
  });
  process.send?.({ url });
}

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json() };
}

export async function benchAdvance(
  options: { root?: string; orders?: number; ms?: number } = {},
): Promise<AdvanceBenchResult> {
  const root = options.root ?? fileURLToPath(new URL('..', import.meta.url));
  const orders = options.orders ?? 50;
  const ms = options.ms ?? 86_400_000;
  const child = fork(fileURLToPath(import.meta.url), ['--serve', root], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const base = await message(child, (m) => (m as { url?: string }).url);
    const auth = { authorization: `Bearer ${BURNER.apiKey}`, 'content-type': 'application/json' };
    for (let i = 0; i < orders; i++) {
      const placed = await json(`${base}/v1/match/orders`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          idempotencyKey: `00000000-0000-4000-8000-${(0xad0000 + i).toString(16).padStart(12, '0')}`,
          orderType: 'BURN',
          amount: { amount: '100.00', currency: 'USD' },
          feeBps: '3',
          postFillAction: 'roll',
          sourceWalletId: BURNER.walletId,
          fiatAccountId: BURNER.fiatAccountId,
        }),
      });
      if (placed.status !== 202) throw new Error(`placement ${i} answered ${placed.status}`);
    }
    const t0 = performance.now();
    const advance = json(`${base}/_sim/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms }),
    }).then((r) => ({ ...r, at: performance.now() }));
    // Behind it on its own connection: served only once the simulator's event loop is free.
    const g0 = performance.now();
    const get = json(`${base}/v1/match/account`, { headers: auth }).then(() => performance.now() - g0);
    const [done, concurrentGetMs] = await Promise.all([advance, get]);
    const rss = message(child, (m) => (m as { rssMb?: number }).rssMb);
    child.send('rss');
    const serverPeakRssMb = await rss;
    const state = (await json(`${base}/_sim/state`)).body as { data: { auction: { auctionId: number } } };
    const list = (await json(`${base}/v1/match/orders?pageSize=1`, { headers: auth })).body as {
      data: { pagination: { total: number } };
    };
    return {
      root,
      orders,
      ms,
      advanceStatus: done.status,
      advanceWallMs: done.at - t0,
      concurrentGetMs,
      serverPeakRssMb,
      currentAuctionId: state.data.auction.auctionId,
      ordersListed: list.data.pagination.total,
    };
  } finally {
    child.kill();
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
if (isMain && arg('--serve') !== undefined) {
  await serve(arg('--serve') as string);
} else if (isMain) {
  const result = await benchAdvance({
    ...(arg('--root') ? { root: arg('--root') } : {}),
    ...(arg('--orders') ? { orders: Number(arg('--orders')) } : {}),
    ...(arg('--ms') ? { ms: Number(arg('--ms')) } : {}),
  });
  console.log(`node ${process.version}, ${new Date().toISOString()}`);
  console.log(
    `${result.root}: advance ${result.ms} ms over ${result.orders} resting roll orders -> ${result.advanceStatus} in ` +
      `${result.advanceWallMs.toFixed(0)} ms; concurrent GET waited ${result.concurrentGetMs.toFixed(0)} ms; ` +
      `server peak RSS ${result.serverPeakRssMb.toFixed(0)} MB; now auction ${result.currentAuctionId}, ` +
      `${result.ordersListed} orders listed`,
  );
}
