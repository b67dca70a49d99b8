import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, StoreInUseError, StoreLayoutError } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { UncheckedDriver } from '../helpers.js';

// The store file is the simulator's alone (store/store-lock.ts, store/store-identity.ts): a second
// opener of a file in use, or a file that is not a store, is refused before anything writes it,
// and a reset empties the store's own tables only.
const START = Date.parse('2026-01-01T00:00:00Z');
const OPTIONS = { startTime: START, seed: 9, market: { preset: 'busy', noise: { count: 8 } } } as const;
const NOISE = 'TEST_API_KEY:noise-0001:sim';
const MVSM = 0x4d56534d;
const dir = mkdtempSync(join(tmpdir(), 'match-venue-ownership-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const Sqlite = createRequire(import.meta.url)('better-sqlite3');

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** The application id in the file's own header (offset 68), as the file holds it on disk. */
const headerId = (file: string) => readFileSync(file).readUInt32BE(68);
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (err) {
    return err;
  }
  return undefined;
};
const count = (file: string, table: string): number => {
  const db = new Sqlite(file, { readonly: true });
  const n = db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  db.close();
  return n;
};

describe('store: one simulator per file, and only its own files', () => {
  it('a second simulator on a file in use is refused untouched; the first still answers its evicted orders', async () => {
    const file = join(dir, 'shared.db');
    const store = { file, retainMs: 10_000 };
    const first = createSimulator({ ...OPTIONS, store });
    const entityId = first.entityForApiKey(NOISE)?.entityId;
    first.advance(10_000);
    const ids = [...first.engine.state.orders.values()]
      .filter((o) => o.entityId === entityId)
      .map((o) => o.orderId);
    expect(ids.length).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) first.advance(10_000);
    // Let the writer thread finish: what the second opener would drop is in the file.
    await new UncheckedDriver(first).call('GET', '/v1/match/orders', NOISE);
    const refused = thrown(() => createSimulator({ store }));
    expect(refused).toBeInstanceOf(StoreInUseError);
    expect((refused as Error).message).toBe(
      `store ${file} is in use by another simulator (pid ${process.pid}, this process); stop it or use another file`,
    );
    const evicted = ids.filter((id) => !first.engine.state.orders.has(id));
    expect(evicted.length).toBe(ids.length);
    const d = new UncheckedDriver(first);
    for (const id of evicted) {
      const r = await d.call('GET', `/v1/match/orders/${id}`, NOISE);
      expect(r.status).toBe(200);
      expect((r.body as { data: { orderId: string } }).data.orderId).toBe(id);
      expect(first.engine.getOrder(entityId as string, { id }).orderId).toBe(id);
    }
    // The file holds them, past its last checkpoint (none yet): the rows a second opener drops.
    expect(count(file, 'chunks')).toBeGreaterThan(0);
    expect(count(file, 'checkpoint')).toBe(0);
    await first.close();
    // close() lets the lock go: the next simulator opens the file where close() left it.
    const next = createSimulator({ store });
    expect(next.now()).toBe(first.now());
    for (const id of evicted)
      expect((await new UncheckedDriver(next).call('GET', `/v1/match/orders/${id}`, NOISE)).status).toBe(200);
    await next.close();
  });

  it("another application's SQLite file is refused as it was: no write, no journal change, no -wal", () => {
    const file = join(dir, 'crm.db');
    const db = new Sqlite(file);
    db.exec(
      "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('Ada'), ('Grace'); PRAGMA user_version = 6",
    );
    db.close();
    const before = sha256(file);
    const refused = thrown(() => createSimulator({ store: file }));
    expect(refused).toBeInstanceOf(StoreLayoutError);
    expect((refused as Error).message).toBe(
      `store ${file} is not a match-venue simulator store this version reads (application_id 0, user_version 6, tables: customers); nothing was changed: use another file`,
    );
    expect(sha256(file)).toBe(before);
    for (const beside of ['-wal', '-shm', '-journal', '.lock'])
      expect(existsSync(`${file}${beside}`)).toBe(false);
    const check = new Sqlite(file, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();
    expect(count(file, 'customers')).toBe(2);
    // A reset from a simulator that took it would have emptied it: none did.
    expect(sha256(file)).toBe(before);
  });

  it('a WAL-mode file of another application and a file that is not SQLite are refused alike', () => {
    const wal = join(dir, 'app.db');
    const db = new Sqlite(wal);
    db.pragma('journal_mode = WAL');
    db.exec("CREATE TABLE events (at TEXT); INSERT INTO events VALUES ('x'); PRAGMA user_version = 6");
    db.close(); // the last connection: its -wal and -shm go
    expect(existsSync(`${wal}-wal`)).toBe(false);
    const before = sha256(wal);
    expect(thrown(() => createSimulator({ store: wal }))).toEqual(
      new StoreLayoutError(
        `store ${wal} is not a match-venue simulator store this version reads (application_id 0, user_version 6, tables: events); nothing was changed: use another file`,
      ),
    );
    // Even a read-only connection would have left a -wal and a -shm beside it.
    for (const beside of ['-wal', '-shm', '.lock']) expect(existsSync(`${wal}${beside}`)).toBe(false);
    expect(sha256(wal)).toBe(before);
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a database, but long enough to have a header of a hundred bytes...'.repeat(3));
    const textBefore = sha256(text);
    expect(thrown(() => createSimulator({ store: text }))).toEqual(
      new StoreLayoutError(
        `store ${text} is not a match-venue simulator store this version reads (not an SQLite database); nothing was changed: use another file`,
      ),
    );
    expect(sha256(text)).toBe(textBefore);
  });

  it("a reset empties the store's own tables: one added to the file keeps its rows", async () => {
    const file = join(dir, 'with-notes.db');
    const store = { file, retainMs: 10_000 };
    const sim = createSimulator({ ...OPTIONS, store });
    for (let i = 0; i < 4; i++) sim.advance(10_000);
    await sim.close();
    const db = new Sqlite(file);
    db.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep'), ('me')");
    db.close();
    expect(count(file, 'chunks')).toBeGreaterThan(0);
    const again = createSimulator({ store });
    const r = await new UncheckedDriver(again).call('POST', '/_sim/reset', null);
    expect(r.status).toBe(200);
    expect(count(file, 'notes')).toBe(2);
    expect(count(file, 'chunks')).toBe(0);
    expect(count(file, 'id_buckets')).toBe(0);
    await again.close();
  });

  it('a new store carries its application id; one written before the id is taken on when its tables match', async () => {
    const file = join(dir, 'previous.db');
    const sim = createSimulator({ ...OPTIONS, store: { file, retainMs: 10_000 } });
    for (let i = 0; i < 4; i++) sim.advance(10_000);
    await sim.close();
    expect(headerId(file)).toBe(MVSM);
    // What the previous version wrote: the same layout (6) and tables, no application id.
    const db = new Sqlite(file);
    db.pragma('application_id = 0');
    db.close();
    expect(headerId(file)).toBe(0);
    const again = createSimulator({ store: file });
    expect(again.now()).toBe(sim.now());
    await again.close();
    expect(headerId(file)).toBe(MVSM);
  });
});
