/**
 * The SQLite file behind `store`: final orders that left memory, in their REST shape (they never
 * change again, so the JSON written is the JSON every later read answers), and the simulator's
 * last checkpoint (a snapshot document of what stays in memory).
 *
 * Orders leave memory far more often than a checkpoint is written (the document of a busy market
 * is tens of megabytes; written at every eviction it cost more than the whole run's trading), so
 * each eviction is numbered and a checkpoint records the number it was taken after. Opening the
 * file drops the rows evicted after its checkpoint: those orders are in the checkpoint's memory.
 * The file so always resumes at one consistent moment: no order twice, none missing.
 */
import type { WireOrder } from '../engine/rest-shapes.js';
import type { ActivityEntry } from '../engine/account.js';
import type { ActivitySums, Order } from '../engine/types.js';
import { IdFilter } from './id-filter.js';
import { decodeOrder, encodeOrder } from './order-row.js';
import type { Database, DatabaseConstructor, Statement } from './sqlite.js';

/** What a listing filters on, as the in-memory listing's query (times in epoch ms, inclusive). */
export interface StoredOrderFilter {
  status?: string | undefined;
  orderType?: string | undefined;
  orderId?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

/** A stored order as a listing reads it: what it sorts on, and its REST shape. */
export interface StoredOrder {
  orderId: string;
  createdAt: number;
  wire: WireOrder;
}

// A rowid table: rows arrive in eviction order (about creation order), so they append to packed
// pages; keyed by the random order id (WITHOUT ROWID) every insert landed on a random page and the
// file grew half empty, at twice the time. The listing index matches the in-memory sort (createdAt,
// then orderId; SQLite compares TEXT bytewise, as JS compares these ASCII ids).
// `eviction` numbers the transaction that wrote the row (see above).
const SCHEMA = `
CREATE TABLE IF NOT EXISTS orders (
  order_id TEXT NOT NULL UNIQUE, entity_id TEXT NOT NULL, created_at INTEGER NOT NULL,
  status TEXT NOT NULL, order_type TEXT NOT NULL, fields TEXT NOT NULL, eviction INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_by_entity ON orders (entity_id, created_at, order_id);
CREATE TABLE IF NOT EXISTS activity (
  entity_id TEXT NOT NULL, at INTEGER NOT NULL, matched INTEGER NOT NULL, rebates INTEGER NOT NULL,
  fees INTEGER NOT NULL, eviction INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS activity_by_entity ON activity (entity_id, at);
CREATE TABLE IF NOT EXISTS checkpoint (
  id INTEGER PRIMARY KEY CHECK (id = 1), doc TEXT NOT NULL, eviction INTEGER NOT NULL
);
`;

/** The file layout this code writes (`PRAGMA user_version`); another is refused, not misread. */
const LAYOUT = 2;

/** A `store` file written by another layout of the store (an older simulator): use a new file. */
export class StoreLayoutError extends Error {
  /** Always `StoreLayoutError`. */
  override name = 'StoreLayoutError';
}

export class OrderStore {
  private readonly db: Database;
  private readonly insert: Statement;
  private readonly byId: Statement;
  private readonly saveDoc: Statement;
  private readonly queries = new Map<string, Statement>();
  private readonly insertActivity: Statement;
  private readonly sumsBefore: Statement;
  private readonly write: (orders: Order[], activity: ActivityEntry[], doc: string | undefined) => void;
  /** The number of the last eviction written. */
  private eviction = 0;
  /** The ids stored, to answer most misses without the file (id-filter.ts). */
  private ids = new IdFilter();

  constructor(Sqlite: DatabaseConstructor, file: string) {
    this.db = new Sqlite(file);
    // WAL: an eviction's transaction appends instead of rewriting pages. No fsync (synchronous
    // OFF): WAL stays consistent when the process dies at any point, and only a machine crash or
    // power loss could lose recent transactions, which a simulator's history can afford; the
    // fsyncs were a third of the insert time (1M rows: 14.6 s -> 10.0 s).
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = OFF');
    // 64 MB of page cache (default 2 MB): the order-id index takes random inserts, and with the
    // file at gigabytes a small cache reads a page back for most of them (day bench, 80 auctions:
    // 25 s -> 18 s; at 300 the gain is within this shared machine's noise).
    this.db.pragma('cache_size = -65536');
    const layout = this.db.pragma('user_version', { simple: true }) as number;
    const empty = !this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table'").get();
    if (!empty && layout !== LAYOUT) {
      this.db.close();
      throw new StoreLayoutError(
        `store ${file} was written by another version of the simulator (layout ${layout}, this one reads ${LAYOUT}); use a new file`,
      );
    }
    this.db.exec(SCHEMA);
    this.db.pragma(`user_version = ${LAYOUT}`);
    this.insert = this.db.prepare(
      'INSERT INTO orders (order_id, entity_id, created_at, status, order_type, fields, eviction) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.byId = this.db.prepare(`SELECT ${COLUMNS} FROM orders WHERE order_id = ?`);
    this.saveDoc = this.db.prepare('INSERT OR REPLACE INTO checkpoint (id, doc, eviction) VALUES (1, ?, ?)');
    this.insertActivity = this.db.prepare(
      'INSERT INTO activity (entity_id, at, matched, rebates, fees, eviction) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.sumsBefore = this.db.prepare(
      'SELECT matched, rebates, fees FROM activity WHERE entity_id = ? AND at < ? ORDER BY at DESC LIMIT 1',
    );
    this.write = this.db.transaction(
      (orders: Order[], activity: ActivityEntry[], doc: string | undefined) => {
        const n = ++this.eviction;
        for (const o of orders) {
          this.insert.run(o.orderId, o.entityId, o.createdAt, o.status, o.orderType, encodeOrder(o), n);
          // Added before the commit: a rolled-back write leaves a "maybe", never a wrong "no".
          this.ids.add(o.orderId);
        }
        for (const a of activity) this.insertActivity.run(a.entityId, a.at, a.matched, a.rebates, a.fees, n);
        if (doc !== undefined) this.saveDoc.run(doc, n);
      },
    );
    // Rows evicted after the last checkpoint belong to its memory (a stop without close()); with no
    // checkpoint at all, to a run that never wrote one, whose memory is gone.
    const last = this.db.prepare('SELECT eviction FROM checkpoint WHERE id = 1').get() as
      | { eviction: number }
      | undefined;
    this.eviction = last?.eviction ?? 0;
    this.db.prepare('DELETE FROM orders WHERE eviction > ?').run(this.eviction);
    this.db.prepare('DELETE FROM activity WHERE eviction > ?').run(this.eviction);
    for (const id of this.db.prepare('SELECT order_id FROM orders').pluck().iterate())
      this.ids.add(id as string);
  }

  /**
   * Writes evicted orders and activity entries, and with `doc` the checkpoint taken after them,
   * together or not at all.
   */
  evict(orders: Order[], activity: ActivityEntry[], doc?: string): void {
    this.write(orders, activity, doc);
  }

  /** The cumulative activity sums through the entity's last stored entry before `at`. */
  activityBefore(entityId: string, at: number): ActivitySums | undefined {
    return this.sumsBefore.get(entityId, at) as ActivitySums | undefined;
  }

  /** Drops every stored order and makes `doc` the checkpoint (a reset or restore: another history). */
  replaceAll(doc: string): void {
    this.db.transaction(() => {
      this.db.exec('DELETE FROM orders; DELETE FROM activity');
      this.ids = new IdFilter();
      this.saveDoc.run(doc, ++this.eviction);
    })();
  }

  /** The last checkpoint's document (JSON text), or undefined for a new file. */
  lastCheckpoint(): string | undefined {
    const row = this.db.prepare('SELECT doc FROM checkpoint WHERE id = 1').get() as
      | { doc: string }
      | undefined;
    return row?.doc;
  }

  /** An evicted order by id, with its entity. */
  get(orderId: string): { entityId: string; wire: WireOrder } | undefined {
    if (!this.ids.mightHave(orderId)) return undefined;
    const row = this.byId.get(orderId) as Row | undefined;
    return row && { entityId: row.entity_id, wire: wireOf(row) };
  }

  /** How many of the entity's evicted orders match. */
  count(entityId: string, f: StoredOrderFilter): number {
    const { sql, params } = where(entityId, f);
    return (this.statement(`SELECT count(*) AS n FROM orders WHERE ${sql}`).get(...params) as { n: number })
      .n;
  }

  /** How many matching evicted orders sort before (createdAt, orderId): an in-memory order's rank among them. */
  countBefore(entityId: string, f: StoredOrderFilter, createdAt: number, orderId: string): number {
    const { sql, params } = where(entityId, f);
    const before = `${sql} AND (created_at < ? OR (created_at = ? AND order_id < ?))`;
    const stmt = this.statement(`SELECT count(*) AS n FROM orders WHERE ${before}`);
    return (stmt.get(...params, createdAt, createdAt, orderId) as { n: number }).n;
  }

  /** The matching evicted orders from `offset`, `limit` of them, in listing order. */
  page(entityId: string, f: StoredOrderFilter, offset: number, limit: number): StoredOrder[] {
    if (limit <= 0) return [];
    const { sql, params } = where(entityId, f);
    const stmt = this.statement(
      `SELECT ${COLUMNS} FROM orders WHERE ${sql} ` + 'ORDER BY created_at, order_id LIMIT ? OFFSET ?',
    );
    return (stmt.all(...params, limit, offset) as Row[]).map((r) => ({
      orderId: r.order_id,
      createdAt: r.created_at,
      wire: wireOf(r),
    }));
  }

  close(): void {
    this.db.close();
  }

  // One prepared statement per filter combination (at most 32 shapes), reused.
  private statement(sql: string): Statement {
    let s = this.queries.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.queries.set(sql, s);
    }
    return s;
  }
}

interface Row {
  order_id: string;
  entity_id: string;
  created_at: number;
  status: string;
  order_type: string;
  fields: string;
}

const COLUMNS = 'order_id, entity_id, created_at, status, order_type, fields';

function wireOf(r: Row): WireOrder {
  const columns = {
    orderId: r.order_id,
    entityId: r.entity_id,
    createdAt: r.created_at,
    status: r.status,
    orderType: r.order_type,
  };
  return decodeOrder(columns, r.fields);
}

function where(entityId: string, f: StoredOrderFilter): { sql: string; params: unknown[] } {
  const parts = ['entity_id = ?'];
  const params: unknown[] = [entityId];
  const add = (clause: string, value: unknown) => {
    parts.push(clause);
    params.push(value);
  };
  if (f.status !== undefined) add('status = ?', f.status);
  if (f.orderType !== undefined) add('order_type = ?', f.orderType);
  if (f.orderId !== undefined) add('order_id = ?', f.orderId);
  if (f.from !== undefined) add('created_at >= ?', f.from);
  if (f.to !== undefined) add('created_at <= ?', f.to);
  return { sql: parts.join(' AND '), params };
}
