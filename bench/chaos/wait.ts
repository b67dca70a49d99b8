/**
 * waitForOutcome chaos (issue 17): the minter's socket goes through a proxy that drops a share of
 * the account event frames (the stream sees seq gaps and resyncs over REST; at a rate of 1 it hears
 * nothing) and kills every socket every 0.2–0.8 s. Round after round the minter places orders that
 * then fill, partly fill with a roll child, get cancelled, or stay unfilled, and calls
 * `orders.waitForOutcome` for each (beside its stream, or beside its mirror, in turn) with a
 * timeout. At the end each answer is compared with the venue's final order: right, wrong, timed out.
 * The changes are made in-process (the handler); the waits read REST over loopback HTTP.
 */
import { isDeepStrictEqual } from 'node:util';
import { Agent } from 'undici';
import type { Order } from '../../src/generated/models.js';
import { startFrameProxy } from './frame-proxy.js';
import { Cleanup, describeError, loadSources, seededRandom, sleep } from './support.js';

export interface WaitChaosOptions {
  /** How long rounds start, s. Default 10. */
  seconds?: number;
  seed?: number;
  /** Share of account event frames dropped. Default 0.5. */
  dropRate?: number;
  /** Socket kill interval, uniform in [min, max] ms. Default [200, 800]. */
  killEveryMs?: readonly [number, number];
  /** Orders per round. Default 4. */
  ordersPerRound?: number;
  /** Each wait's `timeout`, ms. Default 30,000. */
  timeoutMs?: number;
  /** Each wait's `pollIntervalMs`; default the SDK's (5 s). */
  pollIntervalMs?: number;
  srcRoot?: string;
}

export type WaitKind = 'filled' | 'partial_fill (roll)' | 'cancelled' | 'unfilled';

export interface WaitChaosReport {
  /** False when the source tree has no `orders.waitForOutcome`: nothing ran. */
  available: boolean;
  srcRoot: string;
  seed: number;
  seconds: number;
  ms: number;
  dropRate: number;
  rounds: number;
  waits: number;
  /** Answer equal, field by field, to the venue's final order. */
  right: number;
  wrong: number;
  timeouts: number;
  errors: number;
  /** Right answers by the venue's final status (`partial_fill` with its child: `+child`). */
  byStatus: Record<string, number>;
  /** Waits beside the stream / beside the mirror. */
  listeners: { stream: number; mirror: number };
  kills: number;
  accountEventsDropped: number;
  accountEventsForwarded: number;
  reconnects: number;
  resyncs: number;
  examples: string[];
}

const KINDS: readonly WaitKind[] = ['filled', 'partial_fill (roll)', 'cancelled', 'unfilled'];

export async function runWaitChaos(options: WaitChaosOptions = {}): Promise<WaitChaosReport> {
  const started = performance.now();
  const seconds = options.seconds ?? 10;
  const seed = options.seed ?? 1;
  const dropRate = options.dropRate ?? 0.5;
  const [killMin, killMax] = options.killEveryMs ?? [200, 800];
  const perRound = options.ordersPerRound ?? 4;
  const src = await loadSources(options.srcRoot);
  const { MatchVenue } = src.sdk;
  const { createSimulator, SEEDED } = src.simulator;
  const report: WaitChaosReport = {
    available: false,
    srcRoot: src.root,
    seed,
    seconds,
    ms: 0,
    dropRate,
    rounds: 0,
    waits: 0,
    right: 0,
    wrong: 0,
    timeouts: 0,
    errors: 0,
    byStatus: {},
    listeners: { stream: 0, mirror: 0 },
    kills: 0,
    accountEventsDropped: 0,
    accountEventsForwarded: 0,
    reconnects: 0,
    resyncs: 0,
    examples: [],
  };
  const cleanup = new Cleanup();
  let killTimer: NodeJS.Timeout | undefined;
  try {
    const sim = cleanup.add(createSimulator({ clock: 'manual', maxOrdersPerAuction: 1_000_000, seed }), (s) =>
      s.close(),
    );
    const rest = cleanup.add(await sim.listen({ host: '127.0.0.1', port: 0 }), (r) => r.close());
    const proxy = cleanup.add(await startFrameProxy({ upstream: rest.wsUrl, dropRate, seed }), (p) =>
      p.close(),
    );
    const agent = cleanup.add(new Agent({ keepAliveTimeout: 1_000, connections: 32 }), (a) => a.close());
    const direct = (name: 'burner' | 'minter') =>
      new MatchVenue({ apiKey: SEEDED[name].apiKey, baseUrl: rest.url, handler: (req) => sim.handle(req) });
    const burner = direct('burner');
    const minterDirect = direct('minter');
    const minter = new MatchVenue({
      apiKey: SEEDED.minter.apiKey,
      baseUrl: rest.url,
      wsUrl: proxy.wsUrl,
      dispatcher: agent,
    });
    if (typeof minter.orders.waitForOutcome !== 'function' || typeof minter.account.mirror !== 'function')
      return report;
    report.available = true;
    const reconnect = { initialDelayMs: 50, maxDelayMs: 500 };
    const stream = minter.stream.connect({ reconnect, random: seededRandom(seed ^ 0x5a17) });
    cleanup.add(stream, (s) => s.close());
    const mirrorStream = minter.stream.connect({ reconnect, random: seededRandom(seed ^ 0x5a18) });
    cleanup.add(mirrorStream, (s) => s.close());
    const mirror = cleanup.add(minter.account.mirror({ stream: mirrorStream }), (m) => m.close());
    await mirror.ready;

    const killRandom = seededRandom(seed ^ 0x4b112);
    const scheduleKill = () => {
      killTimer = setTimeout(
        () => {
          report.kills += proxy.killAll();
          scheduleKill();
        },
        killMin + killRandom() * (killMax - killMin),
      );
    };
    scheduleKill();

    const rng = seededRandom(seed ^ 0x3e1f);
    const waits: { orderId: string; kind: WaitKind; outcome: Promise<Order> }[] = [];
    const mint = (amount: string, postFillAction: 'cancel' | 'roll' | 'fallback') =>
      minterDirect.orders.place({
        orderType: 'MINT',
        amount: { amount, currency: 'USD' },
        feeBps: '4',
        postFillAction,
      });
    const burn = (amount: string) =>
      burner.orders.place({
        orderType: 'BURN',
        amount: { amount, currency: 'USD' },
        feeBps: '6',
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      });
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) {
      const kind = KINDS[report.rounds % KINDS.length] as WaitKind;
      report.rounds++;
      // Roll children of the last round rest in this auction: out of the way, so each round's
      // orders meet only the volume meant for them.
      await minterDirect.orders.cancelAll();
      const placed = [];
      for (let i = 0; i < perRound; i++) {
        const p = kind === 'partial_fill (roll)' ? '300' : '100';
        const action = kind === 'partial_fill (roll)' ? 'roll' : kind === 'unfilled' ? 'fallback' : 'cancel';
        placed.push(await mint(p, action));
      }
      if (kind === 'filled' || kind === 'partial_fill (roll)') await burn(String(100 * perRound));
      for (const { orderId } of placed) {
        const beside = waits.length % 2 === 0 ? 'stream' : 'mirror';
        report.listeners[beside]++;
        const outcome = minter.orders.waitForOutcome(orderId, {
          timeout: options.timeoutMs ?? 30_000,
          stream: beside === 'stream' ? stream : mirror,
          ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
        });
        outcome.catch(() => undefined);
        waits.push({ orderId, kind, outcome });
      }
      // Sometimes the order ends before the wait has read it once, sometimes well after.
      await sleep(Math.floor(rng() * 40));
      if (kind === 'cancelled') {
        for (const { orderId, auctionId } of placed) await minterDirect.orders.cancel({ auctionId, orderId });
      } else sim.clearAuction();
      await sleep(20 + Math.floor(rng() * 60));
    }

    for (const w of waits) {
      report.waits++;
      const truth = await minterDirect.orders.retrieve(w.orderId);
      try {
        const got = await w.outcome;
        if (isDeepStrictEqual(got, truth)) {
          report.right++;
          const status = truth.status + (truth.lineage.childOrderId ? '+child' : '');
          report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
          continue;
        }
        report.wrong++;
        if (report.examples.length < 5)
          report.examples.push(
            `${w.kind} ${w.orderId}: got ${got.status} child ${String(got.lineage.childOrderId)}, venue ${truth.status} child ${String(truth.lineage.childOrderId)}`,
          );
      } catch (error) {
        if (error instanceof src.sdk.WaitTimeoutError) report.timeouts++;
        else report.errors++;
        if (report.examples.length < 5)
          report.examples.push(`${w.kind} ${w.orderId}: ${describeError(error)}`);
      }
    }
    const st = stream.stats();
    const mt = mirrorStream.stats();
    report.reconnects = st.reconnects + mt.reconnects;
    report.resyncs = st.resyncs + mt.resyncs;
    const ps = proxy.stats();
    report.accountEventsDropped = ps.accountEventsDropped;
    report.accountEventsForwarded = ps.accountEventsForwarded;
    return report;
  } finally {
    if (killTimer) clearTimeout(killTimer);
    report.ms = Math.round(performance.now() - started);
    await cleanup.run();
  }
}
