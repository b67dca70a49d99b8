/**
 * The SQLite file behind `store` (its tables: store-file.ts): final orders that left memory
 * (order-pack.ts: an entity's orders of one eviction in one row), account activity that left
 * memory (cumulative sums, likewise by entity and eviction), and the simulator's last checkpoint
 * (a snapshot document of what stays in memory).
 *
 * Orders leave memory far more often than a checkpoint is written (the document of a busy market
 * is tens of megabytes; written at every eviction it cost more than the whole run's trading), so
 * each eviction is numbered and a checkpoint records the number it was taken after. Opening the
 * file drops the rows evicted after its checkpoint: those orders are in the checkpoint's memory.
 * The file so always resumes at one consistent moment: no order twice, none missing.
 */
import type { ActivityEntry } from '../engine/account.js';
import type { EvictedBatch } from '../engine/eviction.js';
import type { ActivitySums } from '../engine/types.js';
import { activityRows, packActivity } from './activity-pack.js';
import { idKey, offsetsOf } from './id-buckets.js';
import { IdFilter, type SavedSegment } from './id-filter.js';
import { KeptIds } from './kept-ids.js';
import { chunkRows, packBuffers, packOrders } from './order-pack.js';
import { byListing, fromRow, type OrderRow, rowMatches, type StoredOrderFilter, toRow } from './order-row.js';
import type { Database, DatabaseConstructor, Statement } from './sqlite.js';
import {
  clearHistory,
  dropPastCheckpoint,
  MERGE_EVERY,
  openStoreFile,
  StoreLayoutError,
} from './store-file.js';
import { identifyStoreFile } from './store-identity.js';
import { lockStore, type StoreLock } from './store-lock.js';
import { activityOf, type HeldBatch, StoreWriter } from './writer.js';

/** A stored order as a listing reads it: what it sorts on, and its row (decoded for a page only). */
export interface StoredOrder {
  orderId: string;
  createdAt: number;
  row: OrderRow;
}

type ActivityRow = [at: number, matched: number, rebates: number, fees: number];

export class OrderStore {
  private readonly db: Database;
  private readonly saveDoc: Statement;
  private readonly writer: StoreWriter;
  /** Held from before the file is read until after both connections closed (store-lock.ts). */
  private readonly lock: StoreLock;
  private readonly insertActivity: Statement;
  private readonly insertMerge: Statement;
  private readonly bucketOf: Statement;
  private readonly chunkAt: Statement;
  private readonly chunksOfEntity: Statement;
  private readonly activityChunkBefore: Statement;
  /** The number of the last eviction posted to the writer (or, on open, the checkpoint's). */
  private eviction = 0;
  /** The ids stored, to answer most misses without the file (id-filter.ts). */
  private ids = new IdFilter();
  /** Ids kept apart for market placements and rolls (kept-ids.ts). */
  private kept = new KeptIds();
  /** The last listing's stored matches: the pages of one walk read the file once. */
  private lastMatches: { key: string; eviction: number; matches: StoredOrder[] } | undefined;

  constructor(Sqlite: DatabaseConstructor, file: string) {
    // The lock first, then whether the file is a store (read only), and only then a connection that
    // writes: a file in use, or not a store, is refused as it was found.
    this.lock = lockStore(Sqlite, file);
    let db: Database | undefined;
    try {
      db = openStoreFile(Sqlite, file, identifyStoreFile(Sqlite, file));
      this.db = db;
      this.insertActivity = this.db.prepare(
        'INSERT INTO activity (merge, entity_id, first_at, eviction, entries) VALUES (?, ?, ?, ?, ?)',
      );
      this.insertMerge = this.db.prepare('INSERT INTO merges (merge) VALUES (?)');
      this.saveDoc = this.db.prepare(
        'INSERT OR REPLACE INTO checkpoint (id, doc, eviction) VALUES (1, ?, ?)',
      );
      this.bucketOf = this.db.prepare(
        'SELECT first_chunk AS "first", entries FROM id_buckets WHERE eviction = ? AND bucket = ?',
      );
      this.chunkAt = this.db.prepare('SELECT entity_id, orders FROM chunks WHERE chunk = ?');
      // One statement, so one snapshot of the file: a merge moves entries between the two. The
      // merges whose span meets the window, then the entity's part of each (its key's prefix): CROSS
      // JOIN keeps merges the outer loop (without statistics SQLite scanned the index instead).
      const window = (t: string) => `${t}.first_at <= @to AND ${t}.last_at >= @from`;
      this.chunksOfEntity = this.db
        .prepare(
          `SELECT orders FROM chunks WHERE chunk IN (
            SELECT i.chunk FROM merges m CROSS JOIN chunk_index i ON i.merge = m.merge AND i.entity_id = @entity
            WHERE ${window('m')} AND ${window('i')}
            UNION ALL SELECT r.chunk FROM recent_chunks r WHERE r.entity_id = @entity AND ${window('r')})`,
        )
        .pluck();
      // An entity's entries leave memory oldest first: the newest merge with one before `at` has the
      // last such, and anything recent is newer still.
      this.activityChunkBefore = this.db
        .prepare(
          `SELECT entries FROM (
            SELECT * FROM (SELECT entries, 1 AS part, first_at, eviction FROM recent_activity
              WHERE entity_id = @entity AND first_at < @at ORDER BY first_at DESC, eviction DESC LIMIT 1)
            UNION ALL
            SELECT * FROM (SELECT a.entries, 0 AS part, a.first_at, a.eviction FROM merges m
              CROSS JOIN activity a ON a.merge = m.merge AND a.entity_id = @entity AND a.first_at < @at
              ORDER BY m.merge DESC, a.first_at DESC, a.eviction DESC LIMIT 1)
          ) ORDER BY part DESC LIMIT 1`,
        )
        .pluck();
      // No other simulator writes the file (the lock): rows past the checkpoint are a stopped one's.
      this.eviction = dropPastCheckpoint(this.db);
      // The id filter as of the checkpoint (saved with it, so it names exactly the ids kept).
      const saved = this.db.prepare(
        'SELECT segment AS "index", first, last, ids, bits FROM id_filter ORDER BY segment',
      );
      this.ids = IdFilter.load(saved.all() as SavedSegment[]);
      this.kept = KeptIds.load(this.db);
      this.writer = new StoreWriter(file, this.eviction);
    } catch (err) {
      db?.close();
      this.lock.release(err instanceof StoreLayoutError);
      throw err;
    }
  }

  /**
   * Sends evicted orders and activity entries, and with `doc` the checkpoint taken after them, to
   * the writer thread, which writes them together or not at all. Call `ready` first: this never
   * throws for the file (a batch the file refuses stays readable from the writer).
   */
  evict({ orders, byEntity, activity, currentAuctionId }: EvictedBatch, doc?: string): void {
    const n = ++this.eviction;
    const placedIds = this.kept.evicted(orders, n, currentAuctionId);
    // The writer thread sets the ids' bits in this segment before it reports the commit (until
    // then `get` finds them in the held batch); a write that fails leaves them held for good.
    const segment = orders.length > 0 ? this.ids.reserve(n, orders.length) : undefined;
    const packed = packOrders(orders, byEntity);
    const packedActivity = packActivity(activity);
    const filter = doc === undefined ? undefined : this.ids.changed();
    const marketKeys = doc === undefined ? undefined : this.kept.marketKeyList();
    // Every MERGE_EVERY evictions, and with a checkpoint (store-file.ts).
    const merge = doc !== undefined || n % MERGE_EVERY === 0;
    const batch = {
      eviction: n,
      merge,
      orders: packed,
      activity: packedActivity,
      doc,
      segment,
      filter,
      marketKeys,
      placedIds,
    };
    this.writer.post(batch, [...packBuffers(packed), packedActivity.rows.buffer as ArrayBuffer], {
      orders,
      activity,
    });
  }

  /** Waits until the writer can take another eviction; throws StoreWriteError once a write failed. */
  ready(): void {
    this.writer.ready();
  }

  /** The cumulative activity sums through the entity's last stored entry before `at`. */
  activityBefore(entityId: string, at: number): ActivitySums | undefined {
    // Entries leave memory oldest first: those on their way to the file are the newest stored.
    const held = this.writer.held();
    for (let i = held.length - 1; i >= 0; i--) {
      let found: ActivityEntry | undefined;
      for (const a of activityOf(held[i] as HeldBatch, entityId)) if (a.at < at) found = a;
      if (found) return { matched: found.matched, rebates: found.rebates, fees: found.fees };
    }
    const text = this.activityChunkBefore.get({ entity: entityId, at }) as string | undefined;
    if (text === undefined) return undefined;
    // The chunk starts before `at`, and chunks of one entity follow each other in time (entries
    // leave memory oldest first), so its last entry before `at` is the entity's.
    let found: ActivityRow | undefined;
    for (const row of JSON.parse(text) as ActivityRow[]) {
      if (row[0] >= at) break;
      found = row;
    }
    const [, matched, rebates, fees] = found as ActivityRow;
    return { matched, rebates, fees };
  }

  /** Drops every stored order and makes `doc` the checkpoint (a reset or restore: another history). */
  replaceAll(doc: string, baselines: readonly ActivityEntry[]): void {
    this.writer.flush();
    this.db.transaction(() => {
      clearHistory(this.db);
      this.saveDoc.run(doc, ++this.eviction);
      // The baselines as the checkpoint's merge (store-file.ts).
      this.insertMerge.run(this.eviction);
      for (const [entityId, first, text] of activityRows(packActivity(baselines)))
        this.insertActivity.run(this.eviction, entityId, first, this.eviction, text);
    })();
    this.ids = new IdFilter();
    this.kept = new KeptIds();
    this.writer.forget();
    this.lastMatches = undefined;
  }

  /** The last checkpoint's document (JSON text), or undefined for a new file. */
  lastCheckpoint(): string | undefined {
    const row = this.db.prepare('SELECT doc FROM checkpoint WHERE id = 1').get() as
      | { doc: string }
      | undefined;
    return row?.doc;
  }

  /**
   * Whether an order placed under `key` (not a roll child) is stored. Rolls ask it of every child's
   * id, about 1,700 an auction of a busy market: the few keys callers placed are kept apart, so
   * nearly every answer is a "no" without the id filter's segments (kept-ids.ts).
   */
  placed(key: string): boolean {
    if (!this.kept.mayHavePlaced(key)) return false;
    const found = this.get(key);
    return found !== undefined && fromRow(found.entityId, found.row).parentOrderId === null;
  }

  /** An evicted order by id: its entity and row. */
  get(orderId: string): { entityId: string; row: OrderRow } | undefined {
    // Most keys asked are the market's, never stored: answered without a look (kept-ids.ts).
    if (!this.kept.mayHold(orderId)) return undefined;
    // On its way to the file: read here. Checked first: the filter has its ids once the file has
    // them (the writer thread sets their bits before it reports the commit), so a commit
    // meanwhile leaves it in one place or the other.
    const pending = this.writer.pending(orderId);
    if (pending) return { entityId: pending.entityId, row: toRow(pending) };
    const evictions = this.ids.evictionsOf(orderId);
    if (evictions.length === 0) return undefined;
    const { hash, bucket } = idKey(orderId);
    for (const { first, last } of evictions)
      for (let e = last; e >= first; e--) {
        const b = this.bucketOf.get(e, bucket) as { first: number; entries: Uint8Array } | undefined;
        if (!b) continue;
        for (const offset of offsetsOf(b.entries, hash)) {
          const chunk = this.chunkAt.get(b.first + offset) as { entity_id: string; orders: Uint8Array };
          const row = chunkRows(chunk.orders).find((r) => r[0] === orderId);
          if (row) return { entityId: chunk.entity_id, row };
        }
      }
    return undefined;
  }

  /**
   * The entity's evicted orders that match, in listing order. Kept until the next eviction, so
   * that walking the pages of a listing reads the file once.
   */
  matches(entityId: string, f: StoredOrderFilter): StoredOrder[] {
    const key = JSON.stringify([entityId, f.status, f.orderType, f.from, f.to]);
    this.writer.flush();
    const held = this.writer.held();
    const cached = held.length === 0 ? this.lastMatches : undefined;
    if (cached?.key === key && cached.eviction === this.eviction) return cached.matches;
    const from = f.from ?? Number.MIN_SAFE_INTEGER;
    const to = f.to ?? Number.MAX_SAFE_INTEGER;
    const matches: StoredOrder[] = [];
    const consider = (row: OrderRow) => {
      if (rowMatches(row, f)) matches.push({ orderId: row[0], createdAt: row[1], row });
    };
    for (const bytes of this.chunksOfEntity.iterate({ entity: entityId, to, from }))
      for (const row of chunkRows(bytes as Uint8Array)) consider(row);
    // After a flush only batches whose write failed are held: they are part of the history.
    for (const batch of held) for (const o of batch.orders) if (o.entityId === entityId) consider(toRow(o));
    // Chunks come in no set order, each in creation order; an order evicted late interleaves.
    matches.sort(byListing);
    this.lastMatches = { key, eviction: this.eviction, matches };
    return matches;
  }

  close(): void {
    try {
      this.writer.close();
    } finally {
      this.db.close();
      // After both connections: the writer thread's closed its own before writer.close() returned
      // (or, when a write failed, writes no more).
      this.lock.release();
    }
  }
}
