/**
 * Placement chaos: `orders.place` (burner BURN, minter MINT) and `withdrawals.create` (minter)
 * through the fault proxy against a real-clock simulator with short auctions and a small
 * per-auction order cap, so 137008 refusals are common. Each call follows the README's recovery
 * recipe: an OutcomeUnknownError is looked up with `resolveUnknown` (over a clean connection: the
 * point is its answer, not the network), and when nothing is found the same request is sent again
 * with the same key through the faulty network, whose answer is the call's verdict. Verdicts
 * (accepted, refused with a code, OutcomeUnknownError, other) are checked against the simulator's
 * own state once every held request has landed:
 *
 * - false refusal: a definite error, yet the order (withdrawal) exists;
 * - false accept: accepted, yet nothing exists;
 * - duplicates: records beyond one per call (ids are the keys, so any extra record is a duplicate);
 * - unknowns: still OutcomeUnknownError after the recipe, each settled with `resolveUnknown(err,
 *   { wait: true })` over a clean connection; "settled correctly" when that answer agrees with the
 *   final state. A lookup that said "absent for good" before a late attempt made the record counts
 *   as settled wrongly too.
 *
 * Runs against older trees as well (`--src`): their `resolveUnknown` answers null or the record.
 */
import { Agent } from 'undici';
import { DEFAULT_FAULTS, type FaultRates } from './fault-kinds.js';
import { startFaultProxy } from './fault-proxy.js';
import type { FaultProxyStats } from './fault-proxy-api.js';
import { type Call, type CreateChaosReport, followRecipe, judge, refusalCode } from './placement-verdicts.js';
import { burnOrder, Cleanup, hash01, loadSources, seededRandom, seededUuid, sleep } from './support.js';
import { invariantsOf } from '../invariants-of.js';

export type { CreateChaosReport } from './placement-verdicts.js';

export interface PlacementChaosOptions {
  /** orders.place calls, alternately burner BURN and minter MINT. Default 5,200. */
  placements?: number;
  /** withdrawals.create calls by the minter, alongside the placements. Default placements / 10. */
  withdrawals?: number;
  seed?: number;
  /**
   * Placements started per second, whatever the machine's speed, so that the cap is full about
   * half of each auction (a refusal then, room later: the race of issue 9). Default
   * 2 x maxOrdersPerAuction x 2 entities per cycle (100/s with the defaults).
   */
  ratePerSec?: number;
  /** Most calls in flight at once (a slow machine then runs slower, rather than piling up). Default 32. */
  maxInFlight?: number;
  /** The simulator's 137008 cap per entity and auction. Default 10. */
  maxOrdersPerAuction?: number;
  /** Auction cycle of the real-clock simulator (lock and settle windows are 50 ms). Default 400. */
  cycleMs?: number;
  /** The client's per-attempt timeout, ms. Default 1000. */
  timeoutMs?: number;
  /** The client's retries. Default 2 (the SDK default). */
  maxRetries?: number;
  faults?: Partial<FaultRates>;
  /** Hold time of a delayed request, ms. Default [timeoutMs + 150, timeoutMs + 1000]. */
  delayMs?: readonly [number, number];
  /** `src/` directory the SDK and simulator come from. Default this checkout's. */
  srcRoot?: string;
  /**
   * The clients' settle window. Default 3,000 ms: above the longest the fault proxy holds a request
   * after the client gave up on it (its `delayMs` ends 1,000 ms past the client's timeout).
   */
  settleWindowMs?: number;
}

export interface PlacementChaosReport {
  srcRoot: string;
  seed: number;
  ms: number;
  place: CreateChaosReport;
  withdraw: CreateChaosReport;
  proxy: FaultProxyStats;
  auctions: number;
  /** Simulator invariant violations at the end (expected none). */
  invariantViolations: string[];
}

export async function runPlacementChaos(options: PlacementChaosOptions = {}): Promise<PlacementChaosReport> {
  const started = performance.now();
  const placements = options.placements ?? 5_200;
  const withdrawals = options.withdrawals ?? Math.round(placements / 10);
  const seed = options.seed ?? 1;
  const timeoutMs = options.timeoutMs ?? 1_000;
  const cycleMs = options.cycleMs ?? 400;
  const cap = options.maxOrdersPerAuction ?? 10;
  const rate = options.ratePerSec ?? (2 * cap * 2 * 1000) / cycleMs;
  const maxInFlight = options.maxInFlight ?? 32;
  const settleWindowMs = options.settleWindowMs ?? 3_000;
  const src = await loadSources(options.srcRoot);
  const { MatchVenue } = src.sdk;
  const { createSimulator, SEEDED } = src.simulator;

  const cleanup = new Cleanup();
  try {
    const sim = cleanup.add(
      createSimulator({
        clock: 'real',
        cycleMs,
        lockMs: 50,
        settleMs: 50,
        maxOrdersPerAuction: cap,
        withdrawalProcessingMs: 100,
        withdrawalCompleteMs: 300,
        seed,
        logger: { info() {}, error: (m, e) => console.error(`simulator: ${m}`, e) },
      }),
      (s) => s.close(),
    );
    const running = cleanup.add(await sim.listen({ host: '127.0.0.1', port: 0 }), (r) => r.close());
    const proxy = cleanup.add(
      await startFaultProxy({
        upstream: running.url,
        seed,
        faults: { ...DEFAULT_FAULTS, ...options.faults },
        delayMs: options.delayMs ?? [timeoutMs + 150, timeoutMs + 1_000],
      }),
      (p) => p.close(),
    );
    // Own connection pools, closed at the end: nothing is left behind.
    const chaosAgent = cleanup.add(new Agent({ keepAliveTimeout: 10_000, connections: 256 }), (a) =>
      a.close(),
    );
    const cleanAgent = cleanup.add(new Agent({ keepAliveTimeout: 1_000, connections: 64 }), (a) => a.close());
    const jitter = seededRandom(seed ^ 0x9e3779b9);
    const chaosClient = (name: 'burner' | 'minter') =>
      new MatchVenue({
        apiKey: SEEDED[name].apiKey,
        baseUrl: proxy.url,
        dispatcher: chaosAgent,
        timeout: timeoutMs,
        totalTimeout: 30_000,
        maxRetries: options.maxRetries ?? 2,
        retry: { initialDelayMs: 100, maxDelayMs: 1_000, random: jitter },
        settleWindowMs,
      });
    // resolveUnknown runs over a clean connection: the point is to test its answer, not the network.
    const cleanClient = (name: 'burner' | 'minter') =>
      new MatchVenue({
        apiKey: SEEDED[name].apiKey,
        baseUrl: running.url,
        dispatcher: cleanAgent,
        settleWindowMs,
      });
    const chaos = { burner: chaosClient('burner'), minter: chaosClient('minter') };
    const clean = { burner: cleanClient('burner'), minter: cleanClient('minter') };

    const placeCalls: Call[] = [];
    const withdrawCalls: Call[] = [];
    const firstAuction = sim.getState().auction.auctionId;

    const placeOne = async (i: number): Promise<void> => {
      const burn = i % 2 === 0;
      const key = seededUuid(seededRandom(Math.floor(hash01(seed, 'place', i) * 2 ** 32)));
      const amount = `${100 * (1 + Math.floor(hash01(seed, 'amount', i) * 5))}.00`;
      const venue = burn ? chaos.burner : chaos.minter;
      const lookup = (burn ? clean.burner : clean.minter).orders;
      const params = burn
        ? burnOrder(SEEDED.burner, key, amount)
        : {
            idempotencyKey: key,
            orderType: 'MINT' as const,
            amount: { amount, currency: 'USD' as const },
            feeBps: '2',
            // The unfilled part goes to the standard minting product at par (out of the minter's
            // venue-only prefund, which the withdrawals draw on too).
            postFillAction: 'fallback' as const,
          };
      const send = async () => (await venue.orders.place(params)).orderId === key;
      placeCalls.push({
        key,
        ...(await followRecipe(send, (err, wait) => lookup.resolveUnknown(err as never, { wait }))),
      });
    };

    const withdrawOne = async (i: number): Promise<void> => {
      const key = seededUuid(seededRandom(Math.floor(hash01(seed, 'withdraw', i) * 2 ** 32)));
      const params = {
        idempotencyKey: key,
        amount: { amount: '1000.00', currency: 'USD' as const },
        fiatAccountId: SEEDED.minter.fiatAccountId,
      };
      const send = async () => (await chaos.minter.withdrawals.create(params)).id === key;
      // This tree's resolveUnknown answers found or absent; an older one re-sends and returns the
      // withdrawal or throws the refusal (an absence, in this driver's terms).
      const lookup = async (err: unknown, wait: boolean) => {
        try {
          return await clean.minter.withdrawals.resolveUnknown(err as never, { wait });
        } catch (again) {
          if (refusalCode(again) !== undefined) return null;
          throw again;
        }
      };
      withdrawCalls.push({ key, ...(await followRecipe(send, lookup)) });
    };

    /** Starts `work(i)` at `perSec` a second (at most `maxInFlight` at once) and waits for all. */
    const paced = async (count: number, perSec: number, work: (i: number) => Promise<void>) => {
      const t0 = performance.now();
      const inFlight = new Set<Promise<void>>();
      for (let i = 0; i < count; i++) {
        const wait = t0 + (i * 1000) / perSec - performance.now();
        if (wait > 0) await sleep(wait);
        while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
        const call: Promise<void> = work(i).finally(() => inFlight.delete(call));
        inFlight.add(call);
      }
      await Promise.all(inFlight);
    };

    // Warm-up over clean connections (JIT, lazy imports, first keys): a cold process answers slowly
    // enough for timeouts, retries and more load to feed each other. Not part of the count.
    const warmups = new Set<string>();
    for (let i = 0; i < 150; i++) {
      const burn = i % 2 === 0;
      try {
        const order = await (burn ? clean.burner : clean.minter).orders.place(
          burn
            ? burnOrder(SEEDED.burner)
            : {
                orderType: 'MINT',
                amount: { amount: '100.00', currency: 'USD' },
                feeBps: '2',
                postFillAction: 'cancel',
              },
        );
        warmups.add(order.orderId);
      } catch (err) {
        if (refusalCode(err) === undefined) throw err;
      }
    }
    // Withdrawals run alongside (on the minter's prefunded venue-only balance), at the same pace.
    const placed = paced(placements, rate, placeOne);
    const withdrawn = paced(withdrawals, (rate * withdrawals) / Math.max(1, placements), withdrawOne);
    await Promise.all([placed, withdrawn]);
    // Every held (delayed) request has landed before the truth is read.
    const settled = await proxy.idle(30_000);
    if (!settled) throw new Error('placement chaos: the fault proxy still holds requests after 30 s');

    const state = sim.state;
    const entityIds = new Set<string>([SEEDED.burner.entityId, SEEDED.minter.entityId]);
    let orderRecords = 0;
    const placeKeys = new Set(placeCalls.map((c) => c.key));
    for (const order of state.orders.values()) {
      if (entityIds.has(order.entityId) && order.parentOrderId === null && !warmups.has(order.orderId))
        orderRecords++;
    }
    let withdrawalRecords = 0;
    for (const w of state.withdrawals.values())
      if (w.entityId === SEEDED.minter.entityId) withdrawalRecords++;
    // Records that are no call's key count as duplicates too (judge subtracts the existing keys).
    const place = judge('orders.place', placeCalls, (k) => state.orders.has(k), orderRecords);
    const withdraw = judge(
      'withdrawals.create',
      withdrawCalls,
      (k) => state.withdrawals.has(k),
      withdrawalRecords,
    );
    if (placeKeys.size !== placeCalls.length) place.duplicates += placeCalls.length - placeKeys.size;
    return {
      srcRoot: src.root,
      seed,
      ms: Math.round(performance.now() - started),
      place,
      withdraw,
      proxy: proxy.stats(),
      auctions: sim.getState().auction.auctionId - firstAuction + 1,
      invariantViolations: invariantsOf(sim, src.simulator),
    };
  } finally {
    await cleanup.run();
  }
}
