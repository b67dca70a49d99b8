/**
 * The store's read paths after a stored run of the day bench's market:
 * `npx tsx bench/store-reads.ts [--auctions 1000] [--store FILE] [--json]`.
 *
 * The day bench (bench/day.ts) only writes: its market never asks the file for an id (kept-ids.ts)
 * nor lists. A caller does: getOrder of an evicted order, a placement whose key the file may hold
 * (the same lookup, mostly a miss), a listing over memory and the file, an account summary whose
 * window starts before memory. Some of the store's mechanisms (the id filter, the id buckets, the
 * merges of the index by entity) exist for these, so each is measured here, in the same process
 * right after the run (the file's pages partly cached, as a running simulator's are):
 * - `narrowListMs`: a 10 s window of one entity's history, at 200 times spread over the run;
 * - `getHitMs`: getOrder of the evicted order each of those found (another entity each time);
 * - `getMissMs`: getOrder of 200 ids the simulator never made (a fresh key's lookup);
 * - `firstPageMs` / `laterPageMs`: an entity's whole history, pageSize 100, page 1 then page 20
 *   (the second reuses the first's read), for 6 entities;
 * - `accountMs`: an account summary with a 1 h activity window (its sums before memory come from
 *   the file), for the same entities.
 * Each figure is the median and the 90th percentile in ms, with the total of the list.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createSimulator, type Simulator } from '../src/simulator/index.js';
import { DAY_MARKET, flag } from './day.js';

const START = Date.parse('2026-01-01T00:00:00Z');
const AUCTION_MS = 10_000;
/** The default retention (store/simulator-store.ts): orders older than twice it are all evicted. */
const RETAIN_MS = 60_000;
const LOOKUPS = 200;
const KEYS = [1, 2, 3, 250, 500, 996].map((n) => `TEST_API_KEY:noise-${String(n).padStart(4, '0')}:sim`);

export interface Timing {
  medianMs: number;
  p90Ms: number;
  totalMs: number;
  n: number;
}

export interface StoreReadsResult {
  auctions: number;
  runS: number;
  storeMb: number;
  narrowListMs: Timing;
  getHitMs: Timing;
  getMissMs: Timing;
  firstPageMs: Timing;
  laterPageMs: Timing;
  accountMs: Timing;
}

const round = (ms: number) => Number(ms.toFixed(3));

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const total = samples.reduce((a, b) => a + b, 0);
  return { medianMs: round(at(0.5)), p90Ms: round(at(0.9)), totalMs: round(total), n: samples.length };
}

/** Runs `f` and adds its wall time (ms) to `into`. */
function timed<T>(into: number[], f: () => T): T {
  const t0 = performance.now();
  const out = f();
  into.push(performance.now() - t0);
  return out;
}

/** A fresh id of the market's shape that the simulator never made (a caller's new key). */
const freshId = (i: number) => `ffffffff-ffff-4fff-8fff-${i.toString(16).padStart(12, '0')}`;

function entityIds(sim: Simulator): string[] {
  return KEYS.map((key) => {
    const entity = sim.engine.entityForApiKey(key);
    if (!entity) throw new Error(`no participant with key ${key}`);
    return entity.id;
  });
}

export function benchStoreReads(options: { auctions?: number; store?: string } = {}): StoreReadsResult {
  const auctions = options.auctions ?? 1_000;
  const file = options.store ?? '/tmp/match-venue-store-reads.db';
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  const sim = createSimulator({
    clock: 'manual',
    startTime: START,
    seed: 1,
    market: DAY_MARKET,
    store: file,
    activityWindowMs: 3_600_000,
  });
  const t0 = performance.now();
  for (let i = 0; i < auctions; i++) sim.advance(AUCTION_MS);
  const runS = (performance.now() - t0) / 1000;
  const entities = entityIds(sim);
  const iso = (ms: number) => new Date(ms).toISOString();
  // Windows spread over the evicted part of the run (a golden-ratio walk: no two alike).
  const span = auctions * AUCTION_MS - 2 * RETAIN_MS - AUCTION_MS;
  if (span <= 0) throw new RangeError('--auctions too few to evict anything');
  const narrow: number[] = [];
  const hits: { entityId: string; id: string }[] = [];
  for (let k = 0; k < LOOKUPS; k++) {
    const at = START + Math.floor(((k * 0.6180339887) % 1) * span);
    const entityId = entities[k % entities.length] as string;
    const page = timed(narrow, () =>
      sim.engine.listOrders(entityId, { from: iso(at), to: iso(at + AUCTION_MS), pageSize: 1 }),
    );
    const order = page.orders[0];
    if (order) hits.push({ entityId, id: order.orderId });
  }
  const getHit: number[] = [];
  for (const { entityId, id } of hits) {
    const found = timed(getHit, () => sim.engine.getOrder(entityId, { id }));
    if (found.orderId !== id) throw new Error(`getOrder(${id}) answered ${found.orderId}`);
  }
  const getMiss: number[] = [];
  for (let i = 0; i < LOOKUPS; i++) {
    const entityId = entities[i % entities.length] as string;
    timed(getMiss, () => {
      try {
        sim.engine.getOrder(entityId, { id: freshId(i) });
      } catch {
        return; // not found: what a miss answers
      }
      throw new Error(`getOrder(${freshId(i)}) found an order`);
    });
  }
  const firstPage: number[] = [];
  const laterPage: number[] = [];
  const account: number[] = [];
  for (const entityId of entities) {
    const first = timed(firstPage, () => sim.engine.listOrders(entityId, { pageSize: 100 }));
    timed(laterPage, () => sim.engine.listOrders(entityId, { pageSize: 100, page: 20 }));
    if (first.orders.length === 0) throw new Error(`${entityId} lists no order`);
    timed(account, () => sim.engine.getAccount(entityId));
  }
  void sim.close();
  return {
    auctions,
    runS: Number(runS.toFixed(1)),
    storeMb: existsSync(file) ? Math.round(statSync(file).size / 2 ** 20) : 0,
    narrowListMs: timing(narrow),
    getHitMs: timing(getHit),
    getMissMs: timing(getMiss),
    firstPageMs: timing(firstPage),
    laterPageMs: timing(laterPage),
    accountMs: timing(account),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const auctions = flag('--auctions');
  const store = flag('--store');
  const result = benchStoreReads({
    ...(auctions ? { auctions: Number(auctions) } : {}),
    ...(store ? { store } : {}),
  });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
  else {
    const { auctions: n, runS, storeMb, ...reads } = result;
    console.log(`${n} auctions stored in ${runS} s (${storeMb} MB file); reads in ms:`);
    console.table(reads);
  }
}
