/**
 * Stream chaos: the burner's account stream (`venue.stream.connect().account()`) reads through the
 * fault proxy, which kills its socket every 0.1–0.5 s, while the burner places, modifies (several
 * times in the same millisecond: the simulator runs on a manual clock), cancels and the auction
 * clears. The simulator's own event feed is the truth: every distinct state of every burner order
 * (`order.accepted` / `order.updated`). At the end (kills stopped, the consumer caught up) the
 * delivered order events — live, replayed after `since`, or synthesized from REST after a
 * `stream.resync` — are compared with it:
 *
 * - duplicates: a state delivered more than once;
 * - missing: a state never delivered, unless a later state of the same order came from a REST
 *   resync (then the state was superseded while the consumer could not see it: "collapsed", which
 *   the protocol allows and reports with `stream.resync`);
 * - missing final: the last state of an order never delivered (the consumer is left wrong).
 *
 * Both recovery paths run: most kills are short (the client comes back with `since` and the server
 * replays), a quarter are longer outages (the proxy holds the reconnection until more events
 * happened than the server's replay buffer, 64 frames by default, holds), so the client must resync
 * over REST. The changes are made in-process (the venue's handler); only the consumer uses sockets.
 * Every `quietEveryMs` the changes pause and two account mirrors (burner, minter), each on its own
 * socket through the same proxy, must equal the venue field by field (bench/chaos/mirror-check.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { startFaultProxy } from './fault-proxy.js';
import { MirrorWatch, mirrorUnavailable } from './mirror-check.js';
import type { StreamChaosOptions, StreamChaosReport } from './stream-types.js';
import {
  addTruth,
  type Delivery,
  fingerprint,
  isOrderLike,
  judgeDeliveries,
  type Truth,
} from './stream-verdict.js';
import { burnOrder, Cleanup, hash01, loadSources, seededRandom, seededUuid, sleep } from './support.js';

export type { StreamChaosOptions, StreamChaosReport } from './stream-types.js';

export async function runStreamChaos(options: StreamChaosOptions = {}): Promise<StreamChaosReport> {
  const started = performance.now();
  const seconds = options.seconds ?? 10;
  const seed = options.seed ?? 1;
  const [killMin, killMax] = options.killEveryMs ?? [100, 500];
  const replayBufferSize = options.replayBufferSize ?? 64;
  const longOutageRate = options.longOutageRate ?? 0.25;
  const src = await loadSources(options.srcRoot);
  const { MatchVenue } = src.sdk;
  const { createSimulator, SEEDED } = src.simulator;
  const burnerId = SEEDED.burner.entityId;

  const cleanup = new Cleanup();
  try {
    const sim = cleanup.add(
      createSimulator({
        clock: 'manual',
        maxOrdersPerAuction: 1_000_000,
        seed,
        // Withdrawals move on within a few 1 ms ticks, so the mirror sees each status.
        withdrawalProcessingMs: 3,
        withdrawalCompleteMs: 8,
      }),
      (s) => s.close(),
    );
    // Truth: every burner account event in publication order (its index is the socket's seq).
    let published = 0;
    const truth: Truth = new Map();
    cleanup.add(
      sim.onEvent((e) => {
        if (e.channel !== 'account' || e.entityId !== burnerId) return;
        published++;
        if ((e.event === 'order.accepted' || e.event === 'order.updated') && isOrderLike(e.data))
          addTruth(truth, e.data, published);
      }),
      (off) => off(),
    );

    const rest = cleanup.add(await sim.listen({ host: '127.0.0.1', port: 0 }), (r) => r.close());
    // The socket on its own loopback server, with a chosen replay buffer.
    const wsServer = cleanup.add(
      createServer((_req, res) => {
        res.writeHead(404);
        res.end();
      }),
      (server) =>
        new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        }),
    );
    cleanup.add(src.ws.attachWebSocket(sim, wsServer, { replayBufferSize }), (ws) => ws.close());
    await new Promise<void>((done) => wsServer.listen(0, '127.0.0.1', done));
    const wsPort = (wsServer.address() as AddressInfo).port;
    const proxy = cleanup.add(
      await startFaultProxy({
        upstream: rest.url,
        wsUpstream: `http://127.0.0.1:${wsPort}`,
        routes: [],
        seed,
      }),
      (p) => p.close(),
    );
    const agent = cleanup.add(new Agent({ keepAliveTimeout: 1_000, connections: 32 }), (a) => a.close());
    // The changes go straight to the handler (fast, no network); the consumer reads over sockets.
    const direct = (name: 'burner' | 'minter') =>
      new MatchVenue({ apiKey: SEEDED[name].apiKey, baseUrl: rest.url, handler: (req) => sim.handle(req) });
    const burner = direct('burner');
    const minter = direct('minter');
    const viaProxy = (name: 'burner' | 'minter') =>
      new MatchVenue({
        apiKey: SEEDED[name].apiKey,
        baseUrl: rest.url,
        wsUrl: proxy.wsUrl,
        dispatcher: agent,
      });
    const consumer = viaProxy('burner');

    const stream = consumer.stream.connect({
      reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
      random: seededRandom(seed ^ 0x51ed),
    });
    const delivered = new Map<string, Delivery>();
    const deliveryOrder: { orderId: string; fp: string }[] = [];
    const deliveredOrders = new Set<string>();
    let maxSeq = 0;
    let lastDeliveryAt = performance.now();
    let resyncMarkers = 0;
    let liveEventsDelivered = 0;
    let restEventsDelivered = 0;
    const account = stream.account();
    const consumed = (async () => {
      for await (const ev of account) {
        lastDeliveryAt = performance.now();
        if (typeof ev.seq === 'number') maxSeq = Math.max(maxSeq, ev.seq);
        if (ev.event === 'stream.resync') {
          resyncMarkers++;
          continue;
        }
        const fromRest = (ev as { source?: string }).source === 'rest';
        if (fromRest) restEventsDelivered++;
        else liveEventsDelivered++;
        if ((ev.event === 'order.accepted' || ev.event === 'order.updated') && isOrderLike(ev.data)) {
          const fp = fingerprint(ev.data);
          const seen = delivered.get(fp) ?? { count: 0, rest: false, how: [] };
          seen.count++;
          seen.rest ||= fromRest;
          seen.how.push(`${fromRest ? 'rest' : 'live'}@${String(ev.seq)}`);
          deliveryOrder.push({ orderId: ev.data.orderId, fp });
          deliveredOrders.add(ev.data.orderId);
          delivered.set(fp, seen);
        }
      }
    })();
    // Closed first at the end: the stream, then its reader ends.
    cleanup.add(consumed, (c) => stream.close().then(() => c.catch(() => {})));

    const ops = {
      placed: 0,
      counterpartyPlaced: 0,
      modified: 0,
      sameMsModifies: 0,
      cancelled: 0,
      cancelAlls: 0,
      clears: 0,
      clockAdvances: 0,
      refused: 0,
    };
    let kills = 0;
    let longOutages = 0;
    let outageDue = false;
    let killing = true;
    let killTimer: NodeJS.Timeout | undefined;
    const killRandom = seededRandom(seed ^ 0x4b111);
    const scheduleKill = () => {
      killTimer = setTimeout(
        () => {
          if (!killing) return;
          if (killRandom() < longOutageRate) outageDue = true;
          else kills += proxy.killStreams();
          scheduleKill();
        },
        killMin + killRandom() * (killMax - killMin),
      );
    };

    let caughtUp = false;
    let watch: MirrorWatch | null = null;
    try {
      if (!(await account.ready)) throw new Error('stream chaos: the account stream never became ready');
      const ids = { burner: burnerId, minter: SEEDED.minter.entityId };
      watch =
        options.mirror === false
          ? null
          : await MirrorWatch.start(sim, viaProxy, direct, ids, seed, options.mirror ?? {});
      if (watch) cleanup.add(watch, (w) => w.close());
      const quietEveryMs = options.quietEveryMs ?? 1_000;
      let nextQuiet = performance.now() + quietEveryMs;
      scheduleKill();
      const rng = seededRandom(seed);
      const keys = seededRandom(Math.floor(hash01(seed, 'stream-keys') * 2 ** 32));
      const pending: string[] = [];
      const modifies = new Map<string, number>();
      const lastUpdate = (orderId: string) => truth.get(orderId)?.at(-1)?.updatedAt;
      /** One random change: place, fee changes (same ms), cancel, cancel-all, clear, a 1 ms tick. */
      const step = async (): Promise<void> => {
        const r = rng();
        try {
          if (r < 0.3 || pending.length === 0) {
            const placed = await burner.orders.place(burnOrder(SEEDED.burner, seededUuid(keys)));
            pending.push(placed.orderId);
            ops.placed++;
          } else if (r < 0.38) {
            await minter.orders.place({
              idempotencyKey: seededUuid(keys),
              orderType: 'MINT',
              amount: { amount: '100.00', currency: 'USD' },
              feeBps: '2',
              postFillAction: 'cancel',
            });
            ops.counterpartyPlaced++;
          } else if (r < 0.72) {
            // One to three fee changes back to back, each to a fee the order never had.
            const orderId = pending[Math.floor(rng() * pending.length)] as string;
            const times = 1 + Math.floor(rng() * 3);
            for (let k = 0; k < times; k++) {
              const n = (modifies.get(orderId) ?? 0) + 1;
              modifies.set(orderId, n);
              if (lastUpdate(orderId) === sim.now()) ops.sameMsModifies++;
              const auctionId = sim.getState().auction.auctionId;
              await burner.orders.modify({ auctionId, orderId, feeBps: (5 + n / 100).toFixed(2) });
              ops.modified++;
            }
          } else if (r < 0.82) {
            const at = Math.floor(rng() * pending.length);
            const orderId = pending[at] as string;
            pending.splice(at, 1);
            await burner.orders.cancel({ auctionId: sim.getState().auction.auctionId, orderId });
            ops.cancelled++;
          } else if (r < 0.84) {
            pending.length = 0;
            await burner.orders.cancelAll();
            ops.cancelAlls++;
          } else if (r < 0.9) {
            pending.length = 0;
            sim.clearAuction();
            ops.clears++;
          } else if (r < 0.93) {
            sim.advance(1);
            ops.clockAdvances++;
          } else {
            await sleep(1);
          }
          // In-process calls never leave the microtask queue: let the socket and the timers run.
          await new Promise<void>((done) => setImmediate(done));
        } catch (err) {
          if (!(err instanceof Error && typeof (err as { status?: unknown }).status === 'number')) throw err;
          ops.refused++;
        }
      };
      let until = performance.now() + seconds * 1000;
      while (performance.now() < until) {
        if (watch && performance.now() >= nextQuiet) {
          // Changes paused while the mirrors are compared; the run's seconds of changes exclude it.
          const pausedAt = performance.now();
          await watch.quietPoint();
          await watch.withdraw(SEEDED.minter.fiatAccountId);
          until += performance.now() - pausedAt;
          nextQuiet = performance.now() + quietEveryMs;
        }
        if (outageDue) {
          // A longer outage: the socket dies and cannot come back until more has happened than the
          // server can replay, so the consumer must resync over REST.
          outageDue = false;
          proxy.holdUpgrades();
          kills += proxy.killStreams();
          longOutages++;
          const target = published + replayBufferSize + 16;
          for (let i = 0; published < target && i < 10 * replayBufferSize; i++) await step();
          proxy.releaseUpgrades();
        }
        await step();
      }
      killing = false;
      if (killTimer) clearTimeout(killTimer);
      // The consumer catches up: a last order placed once the kills stopped reaches it (events are
      // delivered in seq order, so everything before it was handled), then a quiet moment.
      const sentinel = seededUuid(keys);
      await burner.orders.place(burnOrder(SEEDED.burner, sentinel));
      const bound = performance.now() + (options.catchUpMs ?? 15_000);
      while (performance.now() < bound) {
        if (deliveredOrders.has(sentinel) && performance.now() - lastDeliveryAt > 300) {
          caughtUp = true;
          break;
        }
        await sleep(20);
      }
      // One last quiet point once the kills stopped: every withdrawal made, the clock moved on.
      if (watch) await watch.quietPoint();
    } finally {
      killing = false;
      if (killTimer) clearTimeout(killTimer);
    }

    const verdict = judgeDeliveries(truth, delivered, deliveryOrder);
    const mirror = watch ? await watch.finish() : mirrorUnavailable();
    const stats = stream.stats();
    return {
      srcRoot: src.root,
      seed,
      seconds,
      ms: Math.round(performance.now() - started),
      operations: ops,
      kills,
      longOutages,
      reconnects: stats.reconnects,
      resyncs: stats.resyncs,
      resyncMarkers,
      clientDuplicatesDropped: stats.duplicatesDropped,
      accountEventsPublished: published,
      lastSeqDelivered: maxSeq,
      liveEventsDelivered,
      restEventsDelivered,
      orders: truth.size,
      expectedStates: verdict.expectedStates,
      deliveredStates: delivered.size,
      duplicates: verdict.duplicates,
      missing: verdict.missing,
      missingFinal: verdict.missingFinal,
      collapsedByResync: verdict.collapsedByResync,
      outOfOrder: verdict.outOfOrder,
      unexpected: verdict.unexpected,
      caughtUp,
      examples: verdict.examples,
      duplicateExamples: verdict.duplicateExamples,
      mirror,
    };
  } finally {
    await cleanup.run();
  }
}
