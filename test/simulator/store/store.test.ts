import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, type Simulator, StoreUnavailableError } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { SimulatorStore } from '../../../src/simulator/store/simulator-store.js';
import { BURNER, Driver, UncheckedDriver } from '../helpers.js';

const START = Date.parse('2026-01-01T00:00:00Z');
const OPTIONS = {
  startTime: START,
  seed: 5,
  market: { preset: 'busy', noise: { count: 16 }, liquidity: { count: 2 } },
} as const;
const NOISE = 'TEST_API_KEY:noise-0001:sim';
const dir = mkdtempSync(join(tmpdir(), 'match-venue-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `n` auctions of 10 s; the burner places one roll order in each (its own history to list). */
async function run(sim: Simulator, n: number, from = 0) {
  const d = drive(sim);
  for (let i = from; i < from + n; i++) {
    const idempotencyKey = `00000000-0000-4000-8000-${(i + 1).toString(16).padStart(12, '0')}`;
    await d.placed(
      d.burn('1500.00', { feeBps: '5', postFillAction: i % 2 ? 'roll' : 'cancel', idempotencyKey }),
    );
    sim.advance(10_000);
  }
}

const withStore = new WeakSet<Simulator>();
const drive = (sim: Simulator) => (withStore.has(sim) ? new UncheckedDriver(sim) : new Driver(sim));
function storeSim(options: Parameters<typeof createSimulator>[0]): Simulator {
  const sim = createSimulator(options);
  withStore.add(sim);
  return sim;
}

const withoutFallbacks = (sim: Simulator) => ({ ...sim.getState(), fallbacks: undefined });
const iso = (ms: number) => new Date(ms).toISOString();

/** Every listing the test compares: both entities, windows across the eviction line, pages, filters. */
function queries(): string[] {
  const q: string[] = [];
  const windows = [
    [0, 200_000],
    [15_000, 75_000],
    [55_000, 120_000],
    [100_000, 110_000],
  ] as const;
  for (const [a, b] of windows)
    for (const page of [1, 2, 3, 9])
      q.push(`from=${iso(START + a)}&to=${iso(START + b)}&pageSize=7&page=${page}`);
  q.push(
    'pageSize=100',
    'status=unfilled&pageSize=100',
    'orderType=BURN&page=2&pageSize=5',
    'pageSize=3&page=40',
  );
  q.push(`from=${iso(START + 30_000)}&status=cancelled&pageSize=50`);
  return q;
}

async function listings(sim: Simulator) {
  const d = drive(sim);
  const out: unknown[] = [];
  for (const key of [BURNER.apiKey, NOISE])
    for (const q of queries()) {
      const r = await d.call('GET', `/v1/match/orders?${q}`, key);
      expect(r.status).toBe(200);
      out.push(r.body);
    }
  return out;
}

describe('store: orders evicted to SQLite', () => {
  const file = join(dir, 'week.db');
  const memory = createSimulator(OPTIONS);
  let stored: Simulator;

  it('lists across evicted and in-memory orders exactly as a simulator that keeps everything', async () => {
    stored = storeSim({ ...OPTIONS, store: { file, retainMs: 20_000 } });
    await run(memory, 14);
    await run(stored, 14);
    const kept = stored.engine.state.orders.size;
    // Eviction happened: the stored simulator holds far fewer orders than the one that keeps all.
    expect(kept).toBeLessThan(memory.engine.state.orders.size / 2);
    expect(await listings(stored)).toEqual(await listings(memory));
  });

  it('answers getOrder and an idempotent replay for an evicted order', async () => {
    const evicted = [...memory.engine.state.orders.values()].filter(
      (o) => o.entityId === BURNER.entityId && !stored.engine.state.orders.has(o.orderId),
    );
    expect(evicted.length).toBeGreaterThan(3);
    const id = (evicted[0] as { orderId: string }).orderId;
    const [a, b] = [drive(memory), drive(stored)];
    const got = await b.call('GET', `/v1/match/orders/${id}`, BURNER.apiKey);
    expect(got.status).toBe(200);
    expect(got.body).toEqual((await a.call('GET', `/v1/match/orders/${id}`, BURNER.apiKey)).body);
    // Another entity does not see it: 404 as in memory.
    const other = await b.call('GET', `/v1/match/orders/${id}`, NOISE);
    expect(other.status).toBe(404);
    expect(other.body).toEqual((await a.call('GET', `/v1/match/orders/${id}`, NOISE)).body);
    const body = { feeBps: '5', postFillAction: 'cancel', idempotencyKey: id };
    const replay = await b.placed(b.burn('1500.00', body));
    expect(replay).toEqual(await a.placed(a.burn('1500.00', body)));
    const reused = await b.burn('1600.00', body);
    expect(reused.status).toBe(409);
    expect(reused.body).toEqual((await a.burn('1600.00', body)).body);
  });

  it('a simulator created on the same file resumes: auction, balances, listings, and runs on alike', async () => {
    const before = stored.getState();
    await stored.close();
    const resumed = storeSim({ store: { file, retainMs: 20_000 } });
    expect(resumed.now()).toBe(memory.now());
    expect(resumed.getState().auction.auctionId).toBe(15);
    expect(withoutFallbacks(resumed)).toEqual(withoutFallbacks(memory));
    expect(withoutFallbacks(resumed)).toEqual({ ...before, fallbacks: undefined });
    expect(await listings(resumed)).toEqual(await listings(memory));
    await run(memory, 3, 14);
    await run(resumed, 3, 14);
    expect(withoutFallbacks(resumed)).toEqual(withoutFallbacks(memory));
    // `/_sim/state` lists the fallbacks still in memory: the newest of the full list.
    const [all, kept] = [memory.getState().fallbacks, resumed.getState().fallbacks];
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(all.slice(all.length - kept.length));
    expect(await listings(resumed)).toEqual(await listings(memory));
    await resumed.close();
    await memory.close();
  });

  it('a reset starts the file over: the old history is gone', async () => {
    const f = join(dir, 'reset.db');
    // Checkpoints every 30 s: the indexes have merges before the reset, and recent rows.
    const sim = storeSim({ ...OPTIONS, store: { file: f, retainMs: 20_000, checkpointMs: 30_000 } });
    await run(sim, 11);
    const db = new (createRequire(import.meta.url)('better-sqlite3'))(f, { readonly: true });
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const rows = (t: string) => count(`SELECT count(*) AS n FROM "${t}"`);
    await drive(sim).call('GET', '/v1/match/orders', BURNER.apiKey); // waits for the file
    for (const t of ['chunks', 'recent_chunks', 'chunk_index', 'id_buckets', 'recent_activity', 'placed_ids'])
      expect([t, rows(t)]).not.toEqual([t, 0]);
    sim.reset();
    // The file holds nothing of the old history: every table is empty but the checkpoint and the
    // reset's own merge of its activity baselines. (A stale index entry could name a chunk of the
    // new history by its reused rowid.)
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    const left = tables.filter((t) => !['checkpoint', 'merges', 'activity'].includes(t));
    expect(left.length).toBeGreaterThan(7);
    for (const t of left) expect([t, rows(t)]).toEqual([t, 0]);
    expect(rows('merges')).toBe(1);
    expect(count('SELECT count(*) AS n FROM activity WHERE merge != (SELECT merge FROM merges)')).toBe(0);
    expect(rows('checkpoint')).toBe(1);
    db.close();
    const r = await drive(sim).call('GET', '/v1/match/orders?pageSize=100', BURNER.apiKey);
    expect(r.body).toEqual({ data: { orders: [], pagination: { page: 1, pageSize: 100, total: 0 } } });
    // The new history is the file's alone: evicted and merged again, it lists as a simulator
    // without a store reset alike (nothing of the old one's rows or index entries shows).
    const plain = createSimulator(OPTIONS);
    await run(plain, 11);
    plain.reset();
    await run(sim, 14, 100);
    await run(plain, 14, 100);
    expect(await listings(sim)).toEqual(await listings(plain));
    await Promise.all([sim.close(), plain.close()]);
  });
});

describe('store: listings while the store changes', () => {
  it('a page read after an eviction, and a listing by id, answer as without a store', async () => {
    const memory = createSimulator(OPTIONS);
    const stored = storeSim({ ...OPTIONS, store: { file: join(dir, 'walk.db'), retainMs: 20_000 } });
    await run(memory, 8);
    await run(stored, 8);
    const page = async (sim: Simulator, q: string) =>
      (await drive(sim).call('GET', `/v1/match/orders?${q}`, BURNER.apiKey)).body;
    // Page 1 is read (the store keeps what it read for the next page), then more orders leave
    // memory before page 2: page 2 must come from the file as it is now.
    expect(await page(stored, 'pageSize=3&page=1')).toEqual(await page(memory, 'pageSize=3&page=1'));
    const inMemory = stored.engine.state.orders.size;
    await run(memory, 4, 8);
    await run(stored, 4, 8);
    expect(stored.engine.state.orders.size).not.toBe(inMemory);
    for (const q of ['pageSize=3&page=2', 'pageSize=3&page=4', 'status=unfilled&pageSize=2&page=2'])
      expect(await page(stored, q)).toEqual(await page(memory, q));
    // `orderId` names one order: an evicted one, with and without a filter it fails.
    const evicted = [...memory.engine.state.orders.values()].find(
      (o) => o.entityId === BURNER.entityId && !stored.engine.state.orders.has(o.orderId),
    );
    expect(evicted).toBeDefined();
    const id = (evicted as { orderId: string }).orderId;
    for (const q of [`orderId=${id}`, `orderId=${id}&orderType=MINT`, `orderId=${id}&status=pending`]) {
      const got = await page(stored, q);
      expect(got).toEqual(await page(memory, q));
    }
    expect((await page(stored, `orderId=${id}`)) as unknown).toMatchObject({
      data: { orders: [{ orderId: id }], pagination: { total: 1 } },
    });
    await Promise.all([stored.close(), memory.close()]);
  });
});

describe('store: options and the optional driver', () => {
  // The store never reads its source when it cannot open.
  const NO_SOURCE = {
    now: () => 0,
    evict: () => {
      throw new Error('not read');
    },
    document: () => ({}),
  };
  it('names the install command when better-sqlite3 cannot be loaded', () => {
    const missing = () => {
      throw new Error("Cannot find module 'better-sqlite3'\nRequire stack: ...");
    };
    expect(() => SimulatorStore.open(join(dir, 'x.db'), NO_SOURCE, missing)).toThrow(StoreUnavailableError);
    expect(() => SimulatorStore.open(join(dir, 'x.db'), NO_SOURCE, missing)).toThrow(
      "store needs better-sqlite3 (12.x, an optional peer dependency), which could not be loaded (Cannot find module 'better-sqlite3'); install it with: npm install --save-exact better-sqlite3@12.9.0",
    );
  });

  it('refuses a store without a file, in memory, or with a retention that is not a positive integer', () => {
    expect(() => createSimulator({ store: '' })).toThrow(new RangeError('store must name a file'));
    // SQLite's in-memory database is one per connection: the writer thread's would be another.
    expect(() => createSimulator({ store: ':memory:' })).toThrow(
      new RangeError("store must name a file on disk, not ':memory:'"),
    );
    expect(() => createSimulator({ store: { file: join(dir, 'y.db'), retainMs: 0 } })).toThrow(
      new RangeError('store.retainMs must be a positive integer of milliseconds'),
    );
  });
});
