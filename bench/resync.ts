/**
 * Resync cost: `npx tsx bench/resync.ts [history] [resyncs]` (defaults 5,000 and 8).
 *
 * One process, loopback only. A manual-clock simulator holds `history` final (cancelled) orders
 * of the burner plus 3 open ones; `venue.stream.connect()` follows its account over a socket
 * endpoint without a replay buffer, so every socket kill with an event in between forces a REST
 * resync. Per resync it reports the GET /v1/match/orders requests the venue served and the time
 * from the kill, and from the `stream.resync` event, to the missed order arriving with
 * `source: 'rest'`. Only public client API is used, so the same file measures any version.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { MatchVenue } from '../src/index.js';
import { createSimulator, SEEDED } from '../src/simulator/index.js';
import { attachWebSocket } from '../src/simulator/ws/server.js';

export interface ResyncBenchResult {
  history: number;
  resyncs: number;
  /** GET /v1/match/orders requests per resync (median). */
  listRequests: number;
  /** Kill -> missed order delivered, ms (median). */
  killToRestMs: number;
  /** `stream.resync` event -> missed order delivered, ms (median): the REST reconciliation. */
  resyncToRestMs: number;
  /** List requests made by the stream outside resyncs (at subscribe). */
  subscribeListRequests: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

export async function benchResync(history = 5_000, resyncs = 8): Promise<ResyncBenchResult> {
  const sim = createSimulator({
    clock: 'manual',
    maxOrdersPerAuction: history + 1_000,
    // Nothing clears while the bench runs: only the bench changes orders.
    cycleMs: 24 * 3_600_000,
    lockMs: 60_000,
  });
  const running = await sim.listen({ host: '127.0.0.1', port: 0 });
  let lists = 0;
  running.server.on('request', (req) => {
    if (req.method === 'GET' && req.url?.startsWith('/v1/match/orders?')) lists += 1;
  });
  // A socket endpoint without a replay buffer, attached before any event so that its account
  // numbering agrees with the listening one (the simulator then sends x-account-seq).
  const wsServer = createServer();
  await new Promise<void>((resolve) => wsServer.listen(0, '127.0.0.1', resolve));
  const ws = attachWebSocket(sim, wsServer, { replayBufferSize: 0 });
  const { port } = wsServer.address() as AddressInfo;

  const burner = SEEDED.burner;
  const place = () =>
    sim.engine.placeOrder(burner.entityId, {
      idempotencyKey: randomUUID(),
      orderType: 'BURN',
      amount: { amount: '100.00', currency: 'USD' },
      feeBps: '6',
      postFillAction: 'cancel',
      sourceWalletId: burner.walletId,
      fiatAccountId: burner.fiatAccountId,
    }).orderId;
  for (let i = 0; i < history; i++) place();
  sim.engine.cancelAllOrders(burner.entityId);
  sim.advance(1_000);
  for (let i = 0; i < 3; i++) place();

  const client = new MatchVenue({
    apiKey: burner.apiKey,
    baseUrl: running.url,
    wsUrl: `ws://127.0.0.1:${port}`,
  });
  const stream = client.stream.connect({ reconnect: { initialDelayMs: 1, maxDelayMs: 5 } });
  const account = stream.account()[Symbol.asyncIterator]();
  const listRequests: number[] = [];
  const killToRest: number[] = [];
  const resyncToRest: number[] = [];
  let subscribeListRequests = 0;
  try {
    await stream.account().ready;
    // Let a read made at subscribe finish before counting.
    await new Promise((resolve) => setTimeout(resolve, 200));
    subscribeListRequests = lists;
    for (let round = 0; round < resyncs; round++) {
      sim.advance(1_000);
      const before = lists;
      const t0 = performance.now();
      ws.killSockets();
      // Synchronously, before the client can be back: this event is what it must not miss.
      const missed = place();
      let tResync = Number.NaN;
      for (;;) {
        const r = await account.next();
        if (r.done) throw new Error('stream ended');
        const ev = r.value as { event: string; source?: string; data: { orderId?: string } };
        if (ev.event === 'stream.resync') tResync = performance.now();
        if (ev.source === 'rest' && ev.data.orderId === missed) break;
      }
      const t1 = performance.now();
      listRequests.push(lists - before);
      killToRest.push(t1 - t0);
      resyncToRest.push(t1 - tResync);
    }
  } finally {
    await stream.close();
    await ws.close();
    await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    await running.close();
    await sim.close();
  }
  const round1 = (x: number) => Math.round(x * 10) / 10;
  return {
    history,
    resyncs,
    listRequests: median(listRequests),
    killToRestMs: round1(median(killToRest)),
    resyncToRestMs: round1(median(resyncToRest)),
    subscribeListRequests,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const history = Number(process.argv[2] ?? 5_000);
  const resyncs = Number(process.argv[3] ?? 8);
  console.table([await benchResync(history, resyncs)]);
}
