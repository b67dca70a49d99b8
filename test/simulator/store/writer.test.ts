import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, type Simulator, StoreWriteError } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { packActivity } from '../../../src/simulator/store/activity-pack.js';
import { chunkRows, packBuffers, packOrders } from '../../../src/simulator/store/order-pack.js';
import { OrderStore } from '../../../src/simulator/store/order-store.js';
import { loadSqlite } from '../../../src/simulator/store/sqlite.js';
import { MAX_IN_FLIGHT, StoreWriter } from '../../../src/simulator/store/writer.js';
import { UncheckedDriver } from '../helpers.js';

// The store's writer thread (store/writer.ts): the simulator goes on while an eviction is written,
// reads what is on its way from memory, and reports a write that failed.
const START = Date.parse('2026-01-01T00:00:00Z');
const OPTIONS = {
  startTime: START,
  seed: 9,
  market: { preset: 'busy', noise: { count: 8 } },
  activityWindowMs: 15_000,
} as const;
const NOISE = 'TEST_API_KEY:noise-0001:sim';
const dir = mkdtempSync(join(tmpdir(), 'match-venue-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const Sqlite = createRequire(import.meta.url)('better-sqlite3');

/** How many of the file's orders have this id (each chunk read as the store reads it). */
function rowsInFile(db: { prepare(sql: string): { pluck(): { all(): unknown[] } } }, id: string): number {
  const chunks = db.prepare('SELECT orders FROM chunks').pluck().all() as Uint8Array[];
  return chunks.flatMap((c) => chunkRows(c)).filter((row) => row[0] === id).length;
}

const get = async (sim: Simulator, path: string) =>
  (await new UncheckedDriver(sim).call('GET', path, NOISE)).body;

describe('store: the writer thread', () => {
  it('an eviction the file has not taken yet is read from memory; a listing waits for the file', async () => {
    const file = join(dir, 'held.db');
    const memory = createSimulator(OPTIONS);
    const stored = createSimulator({ ...OPTIONS, store: { file, retainMs: 10_000 } });
    for (let i = 0; i < 4; i++) for (const s of [memory, stored]) s.advance(10_000);
    // A listing waits for the file: the writer is idle after it.
    await get(stored, '/v1/match/orders');
    // Another connection holds the write lock: the writer thread waits (up to SQLite's 5 s).
    const other = new Sqlite(file);
    other.exec('BEGIN IMMEDIATE');
    const inMemory = new Set(stored.engine.state.orders.keys());
    for (const s of [memory, stored]) s.advance(10_000);
    const onTheWay = [...inMemory].filter((id) => !stored.engine.state.orders.has(id));
    expect(onTheWay.length).toBeGreaterThan(0);
    const listed = (await get(memory, '/v1/match/orders?pageSize=100')) as {
      data: { orders: { orderId: string }[] };
    };
    const ids = new Set(listed.data.orders.map((o) => o.orderId));
    const mine = onTheWay.find((id) => ids.has(id));
    expect(mine).toBeDefined();
    const id = mine as string;
    expect(rowsInFile(other, id)).toBe(0);
    // An account's activity sums count the fills of its entries on their way to the file (a 15 s
    // window starts inside what that eviction drained).
    expect(await get(stored, '/v1/match/account')).toEqual(await get(memory, '/v1/match/account'));
    // getOrder answers it as the simulator that keeps everything does.
    expect(await get(stored, `/v1/match/orders/${id}`)).toEqual(await get(memory, `/v1/match/orders/${id}`));
    expect((await get(stored, `/v1/match/orders/${id}`)) as unknown).toMatchObject({ data: { orderId: id } });
    other.exec('ROLLBACK');
    other.close();
    // A listing counts: it waits until the file holds the batch, then answers alike.
    const q = '/v1/match/orders?pageSize=100';
    expect(await get(stored, q)).toEqual(await get(memory, q));
    const check = new Sqlite(file, { readonly: true });
    expect(rowsInFile(check, id)).toBe(1);
    check.close();
    await Promise.all([stored.close(), memory.close()]);
  });

  it('a write that fails is thrown once, loses nothing, and is thrown again by close()', async () => {
    const file = join(dir, 'broken.db');
    const memory = createSimulator(OPTIONS);
    const sim = createSimulator({ ...OPTIONS, store: { file, retainMs: 10_000 } });
    const both = (n: number) => {
      for (let i = 0; i < n; i++) for (const s of [memory, sim]) s.advance(10_000);
    };
    both(3);
    // From now on the file refuses every chunk, as a full disk would; reads still work.
    const other = new Sqlite(file);
    other.exec(
      "CREATE TRIGGER full BEFORE INSERT ON chunks BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END",
    );
    other.close();
    let thrown: unknown;
    // The failed batch is found by the eviction after the next (two may be on their way).
    for (let i = 0; i < 4 && thrown === undefined; i++)
      try {
        both(1);
      } catch (err) {
        thrown = err;
      }
    expect(thrown).toBeInstanceOf(StoreWriteError);
    expect((thrown as Error).message).toBe('store could not write its file: disk full (test)');
    // The advance stopped at the step that threw (any of its steps, as the thread's timing goes);
    // from there nothing more leaves memory and nothing throws.
    if (sim.now() < memory.now()) sim.advance(memory.now() - sim.now());
    both(3);
    // Every order is still there: in the file, in the batches that could not be written, or in memory.
    const all = async (s: Simulator) => {
      const pages: unknown[] = [];
      for (let page = 1; page <= 3; page++)
        pages.push(await get(s, `/v1/match/orders?pageSize=100&page=${page}`));
      return pages;
    };
    const [got, want] = [await all(sim), await all(memory)];
    expect(got).toEqual(want);
    expect((want[0] as { data: { pagination: { total: number } } }).data.pagination.total).toBeGreaterThan(
      20,
    );
    await expect(sim.close()).rejects.toThrow(thrown as Error);
    await memory.close();
  });

  it('a last checkpoint that the file refuses is thrown by close()', async () => {
    const file = join(dir, 'close-refused.db');
    // No checkpoint before close (one every 10 simulated minutes): close() writes the first.
    const sim = createSimulator({ ...OPTIONS, store: { file, retainMs: 10_000 } });
    for (let i = 0; i < 5; i++) sim.advance(10_000);
    const other = new Sqlite(file);
    other.exec(
      "CREATE TRIGGER full BEFORE INSERT ON checkpoint BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END",
    );
    other.close();
    await expect(sim.close()).rejects.toThrow(
      new StoreWriteError('store could not write its file: disk full (test)'),
    );
  });

  it('holds at most MAX_IN_FLIGHT batches: what the file committed is let go', () => {
    const file = join(dir, 'held-batches.db');
    new OrderStore(loadSqlite(), file).close(); // the file's tables
    const writer = new StoreWriter(file, 0);
    for (let n = 1; n <= 10; n++) {
      writer.ready();
      const orders = packOrders([]);
      const activity = packActivity([]);
      writer.post({ eviction: n, merge: false, orders, activity, placedIds: [] }, packBuffers(orders), {
        orders: [],
        activity: [],
      });
      expect(writer.held().length).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    }
    writer.flush();
    expect(writer.held().length).toBe(0);
    writer.close();
  });
});
