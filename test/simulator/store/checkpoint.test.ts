import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, type Simulator, StoreLayoutError } from 'match-venue/simulator';
import { LAYOUT } from '../../../src/simulator/store/store-file.js';
import { afterAll, describe, expect, it } from 'vitest';
import { UncheckedDriver } from '../helpers.js';

// Checkpoints apart from evictions (store/order-store.ts): a process that stops without close()
// resumes at the last checkpoint, the orders evicted after it back in memory, none twice.
const START = Date.parse('2026-01-01T00:00:00Z');
const MARKET = { preset: 'busy', noise: { count: 12 }, liquidity: { count: 2 } } as const;
const NOISE = ['TEST_API_KEY:noise-0001:sim', 'TEST_API_KEY:noise-0002:sim', 'TEST_API_KEY:lp-01:sim'];
const dir = mkdtempSync(join(tmpdir(), 'match-venue-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const Sqlite = createRequire(import.meta.url)('better-sqlite3');

/**
 * What a process killed now would leave of `file`, under another name: the file and its WAL (its
 * lock and its writer thread die with it). Taken while the simulator is idle (a listing waited for
 * its writer): the running one keeps its file, which no second simulator may open (store-lock.ts).
 */
function killedCopy(file: string, name: string): string {
  const copy = join(dir, name);
  copyFileSync(file, copy);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
  return copy;
}

/** Every order and the account of three participants, through REST (memory and file merged). */
async function history(sim: Simulator) {
  const d = new UncheckedDriver(sim);
  const out: unknown[] = [];
  for (const key of NOISE) {
    // The account summary's activity sums read memory and the file alike.
    out.push((await d.call('GET', '/v1/match/account', key)).body);
    const r = await d.call('GET', '/v1/match/orders?pageSize=100&page=1', key);
    expect(r.status).toBe(200);
    const total = (r.body as { data: { pagination: { total: number } } }).data.pagination.total;
    const pages = [r.body];
    for (let page = 2; (page - 1) * 100 < total; page++)
      pages.push((await d.call('GET', `/v1/match/orders?pageSize=100&page=${page}`, key)).body);
    out.push(pages);
  }
  return out;
}

describe('store: checkpoints', () => {
  it('a stop without close() resumes at the last checkpoint: evicted-later orders in memory, none twice', async () => {
    const file = join(dir, 'crash.db');
    const store = { file, retainMs: 10_000, checkpointMs: 60_000 };
    const running = createSimulator({ startTime: START, seed: 3, market: MARKET, store });
    // The first step (at 10 s) starts both clocks: evictions every 10 s after it, checkpoints at 70 s and 130 s.
    for (let i = 0; i < 14; i++) running.advance(10_000);
    expect(running.now()).toBe(START + 140_000);
    // Rows evicted after the last checkpoint (at 140 s; the checkpoint was at 130 s): on the file now.
    const rowsAfterCheckpoint = (file: string) => {
      const db = new Sqlite(file, { readonly: true });
      const q = 'SELECT count(*) AS n FROM chunks WHERE eviction > (SELECT eviction FROM checkpoint)';
      const n = (db.prepare(q).get() as { n: number }).n;
      db.close();
      return n;
    };
    // A killed process's writer thread dies with it: this one is let finish what it was given (a
    // listing waits for the file) before the file is taken as a killed process would leave it.
    await new UncheckedDriver(running).call('GET', '/v1/match/orders', NOISE[0] as string);
    const crashed = killedCopy(file, 'crash-left.db');
    expect(rowsAfterCheckpoint(crashed)).toBeGreaterThan(0);
    const resumed = createSimulator({ store: { ...store, file: crashed } });
    expect(rowsAfterCheckpoint(crashed)).toBe(0);
    expect(resumed.now()).toBe(START + 130_000);
    const reference = createSimulator({ startTime: START, seed: 3, market: MARKET });
    for (let i = 0; i < 13; i++) reference.advance(10_000);
    const [got, want] = [await history(resumed), await history(reference)];
    expect(got).toEqual(want);
    // Both sides of the eviction line: orders in the file and orders in memory.
    expect(resumed.engine.state.orders.size).toBeLessThan(reference.engine.state.orders.size);
    // An order only the file holds is found by id (the id filter is loaded from the checkpoint on open).
    const oldest = (want[1] as { data: { orders: { orderId: string }[] } }[])[0]?.data.orders[0]?.orderId;
    expect(oldest && resumed.engine.state.orders.has(oldest)).toBe(false);
    const byId = (sim: Simulator) =>
      new UncheckedDriver(sim).call('GET', `/v1/match/orders/${oldest}`, NOISE[0] as string);
    const [found, expected] = [await byId(resumed), await byId(reference)];
    expect(found.status).toBe(200);
    expect(found.body).toEqual(expected.body);
    // Every order only the file holds, of every participant, is found by id: the saved id filter
    // counts the ids of the checkpoint's own eviction too.
    const onlyInFile = [...reference.engine.state.orders.values()].filter(
      (o) => !resumed.engine.state.orders.has(o.orderId),
    );
    expect(onlyInFile.length).toBeGreaterThan(100);
    for (const o of onlyInFile)
      expect(resumed.engine.getOrder(o.entityId, { id: o.orderId })).toEqual(
        reference.engine.getOrder(o.entityId, { id: o.orderId }),
      );
    // And it runs on alike.
    resumed.advance(30_000);
    reference.advance(30_000);
    expect(await history(resumed)).toEqual(await history(reference));
    await Promise.all([resumed.close(), reference.close(), running.close()]);
  });

  it('a stop without close() after a merge past the checkpoint drops that merge and resumes alike', async () => {
    const file = join(dir, 'merge-crash.db');
    // Evictions every 10 s from 20 s (numbers 1, 2, ...), a checkpoint at 90 s (eviction 8), and a
    // merge of the indexes at eviction 10 (every MERGE_EVERY) that no checkpoint covers.
    const store = { file, retainMs: 10_000, checkpointMs: 80_000 };
    const running = createSimulator({ startTime: START, seed: 5, market: MARKET, store });
    for (let i = 0; i < 12; i++) running.advance(10_000);
    await new UncheckedDriver(running).call('GET', '/v1/match/orders', NOISE[0] as string);
    const crashed = killedCopy(file, 'merge-crash-left.db');
    const pastCheckpoint = () => {
      const db = new Sqlite(crashed, { readonly: true });
      const past = (table: string) =>
        (
          db
            .prepare(`SELECT count(*) AS n FROM ${table} WHERE merge > (SELECT eviction FROM checkpoint)`)
            .get() as { n: number }
        ).n;
      const n = [past('merges'), past('chunk_index'), past('activity')];
      db.close();
      return n;
    };
    expect(pastCheckpoint().every((n) => n > 0)).toBe(true);
    const resumed = createSimulator({ store: { ...store, file: crashed } });
    expect(pastCheckpoint()).toEqual([0, 0, 0]);
    expect(resumed.now()).toBe(START + 90_000);
    const reference = createSimulator({ startTime: START, seed: 5, market: MARKET });
    for (let i = 0; i < 9; i++) reference.advance(10_000);
    expect(await history(resumed)).toEqual(await history(reference));
    // It runs on past the old merge's number alike: the next merge takes it again.
    for (let i = 0; i < 4; i++) {
      resumed.advance(10_000);
      reference.advance(10_000);
    }
    expect(await history(resumed)).toEqual(await history(reference));
    await Promise.all([resumed.close(), reference.close(), running.close()]);
  });

  it('activity leaves memory with the orders, and every summary answers as without a store', async () => {
    const options = { startTime: START, seed: 4, market: MARKET, activityWindowMs: 45_000 } as const;
    const stored = createSimulator({
      ...options,
      // Checkpoints every 30 s: sums drained since the last one are read apart from those before.
      store: { file: join(dir, 'activity.db'), retainMs: 10_000, checkpointMs: 30_000 },
    });
    const plain = createSimulator(options);
    const summaries = async (sim: Simulator) => {
      const d = new UncheckedDriver(sim);
      return Promise.all(NOISE.map(async (key) => (await d.call('GET', '/v1/match/account', key)).body));
    };
    let matched = 0;
    for (let i = 0; i < 12; i++) {
      stored.advance(10_000);
      plain.advance(10_000);
      const [a, b] = [await summaries(stored), await summaries(plain)];
      expect(a).toEqual(b);
      for (const s of b as { data: { activity: { totalMatched: { amount: string } } } }[])
        if (s.data.activity.totalMatched.amount !== '0.00') matched++;
    }
    expect(matched).toBeGreaterThan(10);
    // Memory holds the entries of the last two retention windows at most; without a store all.
    const kept = stored.engine.state.activity.get(
      stored.engine.state.byApiKey.get(NOISE[2] as string)?.id ?? '',
    );
    const all = plain.engine.state.activity.get(
      plain.engine.state.byApiKey.get(NOISE[2] as string)?.id ?? '',
    );
    expect(kept?.at.every((t) => t >= stored.now() - 2 * 10_000)).toBe(true);
    expect(kept?.at.length).toBeLessThan(all?.at.length ?? 0);
    await Promise.all([stored.close(), plain.close()]);
  });

  it('a restore into a simulator with a store counts activity as one without a store does', async () => {
    const options = { startTime: START, seed: 4, market: MARKET, activityWindowMs: 45_000 } as const;
    // A stored source: its activity log's sums before its first entry are not zero (the rest left memory).
    const source = createSimulator({ ...options, store: { file: join(dir, 'source.db'), retainMs: 10_000 } });
    for (let i = 0; i < 12; i++) source.advance(10_000);
    const doc = source.snapshot();
    const stored = createSimulator({
      ...options,
      store: { file: join(dir, 'restored.db'), retainMs: 10_000 },
    });
    const plain = createSimulator(options);
    stored.restore(doc);
    plain.restore(doc);
    const matched = async (sim: Simulator) => {
      const out: unknown[] = [];
      for (const key of NOISE) {
        const r = await new UncheckedDriver(sim).call('GET', '/v1/match/account', key);
        out.push((r.body as { data: { activity: unknown } }).data.activity);
      }
      return out;
    };
    // The document's running sums are the base of the window in both (the new file starts empty).
    expect(await matched(stored)).toEqual(await matched(plain));
    for (let i = 0; i < 6; i++) for (const s of [stored, plain]) s.advance(10_000);
    expect(await matched(stored)).toEqual(await matched(plain));
    await Promise.all([stored.close(), plain.close(), source.close()]);
  });

  it('refuses a file written by another layout, and a checkpoint interval that is not a positive integer', () => {
    const file = join(dir, 'old.db');
    const old = new Sqlite(file);
    old.exec('CREATE TABLE orders (order_id TEXT, wire TEXT)');
    old.close();
    const refused = (() => {
      try {
        createSimulator({ store: file });
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(StoreLayoutError);
    // Without the store's application id, it is no store this version reads.
    expect((refused as Error).message).toBe(
      `store ${file} is not a match-venue simulator store this version reads (application_id 0, user_version 0, tables: orders); nothing was changed: use another file`,
    );
    // The row-per-order layout of an older version (2) is refused the same way.
    const v2 = join(dir, 'v2.db');
    const older = new Sqlite(v2);
    older.exec('CREATE TABLE orders (order_id TEXT, fields TEXT); PRAGMA user_version = 2');
    older.close();
    expect(() => createSimulator({ store: v2 })).toThrow(
      new StoreLayoutError(
        `store ${v2} is not a match-venue simulator store this version reads (application_id 0, user_version 2, tables: orders); nothing was changed: use another file`,
      ),
    );
    // A store (its application id) of another layout says so (the next layout: no edit at a bump).
    const next = join(dir, 'next.db');
    const newer = new Sqlite(next);
    newer.exec(
      `PRAGMA application_id = ${0x4d56534d}; PRAGMA user_version = ${LAYOUT + 1}; CREATE TABLE chunks (chunk)`,
    );
    newer.close();
    expect(() => createSimulator({ store: next })).toThrow(
      new StoreLayoutError(
        `store ${next} was written by another version of the simulator (layout ${LAYOUT + 1}, this one reads ${LAYOUT}); use a new file`,
      ),
    );
    expect(() => createSimulator({ store: { file: join(dir, 'z.db'), checkpointMs: 1.5 } })).toThrow(
      new RangeError('store.checkpointMs must be a positive integer of milliseconds'),
    );
  });
});
