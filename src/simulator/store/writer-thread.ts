/**
 * The store's writer thread: inserts each eviction's batch (writer-protocol.ts) in one transaction
 * and reports the commit in the shared state. SQLite took about half of a stored run's time on
 * the simulator's thread (day bench, 600 auctions: 10 of 24 s); here it overlaps with trading.
 *
 * The build makes it one ES module with what it imports, dist/simulator/store-writer.js
 * (tsup.config.ts), which a Worker starts from either build; from src/ (vitest, tsx) the Worker
 * loads this file through tsx (writer-entry.ts). What it imports imports nothing but Node's
 * modules and types (order-pack.ts, activity-pack.ts, order-row.ts, id-buckets.ts, id-filter.ts,
 * store-file.ts), so the thread loads nothing it does not run.
 */

import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { activityRows } from './activity-pack.js';
import { bucketRows } from './id-buckets.js';
import { addBits } from './id-filter.js';
import { entityChunks } from './order-pack.js';
import { tuneConnection } from './store-file.js';
import type { DatabaseConstructor, Statement } from './sqlite.js';
import type { Batch, WriterMessage, WriterSetup } from './writer-protocol.js';

const setup = workerData as WriterSetup;
const state = new Int32Array(setup.state);
const { slots } = setup;

function report(slot: number, value: number): void {
  Atomics.store(state, slot, value);
  // Every waiter waits on `committed`: a failure or the close wakes them too.
  Atomics.notify(state, slots.committed);
}

function fail(err: unknown): void {
  setup.errors.postMessage(err instanceof Error ? err.message : String(err));
  report(slots.failed, 1);
}

function open() {
  const Sqlite = createRequire(setup.sqlite)(setup.sqlite) as DatabaseConstructor;
  const db = new Sqlite(setup.file);
  tuneConnection(db);
  // 64 MB of page cache, sized while the entity index took inserts at every entity's place; not
  // measured again since it appends in merges.
  db.pragma('cache_size = -65536');
  const insertChunk: Statement = db.prepare(
    'INSERT INTO chunks (entity_id, first_at, last_at, orders, eviction) VALUES (?, ?, ?, ?, ?)',
  );
  const insertBucket = db.prepare(
    'INSERT INTO id_buckets (eviction, bucket, first_chunk, entries) VALUES (?, ?, ?, ?)',
  );
  const insertRecentChunk = db.prepare(
    'INSERT INTO recent_chunks (entity_id, first_at, chunk, last_at) VALUES (?, ?, ?, ?)',
  );
  const insertActivity = db.prepare(
    'INSERT INTO recent_activity (entity_id, first_at, eviction, entries) VALUES (?, ?, ?, ?)',
  );
  // What was evicted since the last merge joins the indexes as one merge, sorted by entity, appended
  // (store-file.ts, the schema). A merge's number is its eviction's: a simulator left open on a
  // file another one resumed (writer.test.ts) may number one again.
  const merge = [
    'INSERT OR IGNORE INTO merges SELECT ?, min(first_at), max(last_at) FROM recent_chunks',
    'INSERT INTO chunk_index SELECT ?, entity_id, first_at, chunk, last_at FROM recent_chunks ORDER BY entity_id, first_at, chunk',
    'INSERT INTO activity SELECT ?, entity_id, first_at, eviction, entries FROM recent_activity ORDER BY entity_id, first_at, eviction',
  ].map((sql) => db.prepare(sql));
  const clearRecent = db.prepare('DELETE FROM recent_chunks');
  const clearRecentActivity = db.prepare('DELETE FROM recent_activity');
  const saveDoc = db.prepare('INSERT OR REPLACE INTO checkpoint (id, doc, eviction) VALUES (1, ?, ?)');
  const clearMarketKeys = db.prepare('DELETE FROM market_keys');
  const savePlacedId = db.prepare('INSERT INTO placed_ids (eviction, order_id) VALUES (?, ?)');
  const saveMarketKey = db.prepare('INSERT INTO market_keys (order_id) VALUES (?)');
  const saveSegment = db.prepare(
    'INSERT OR REPLACE INTO id_filter (segment, first, last, ids, bits) VALUES (?, ?, ?, ?, ?)',
  );
  const write = db.transaction((b: Batch) => {
    const n = b.eviction;
    // A chunk per entity (unsorted: a listing sorts what it reads); the ids' buckets name chunks
    // by offset from the eviction's first.
    const idHashes: number[] = [];
    const offsets: number[] = [];
    let firstChunk: number | undefined;
    for (const c of entityChunks(b.orders)) {
      const { lastInsertRowid } = insertChunk.run(c.entityId, c.firstAt, c.lastAt, c.bytes, n) as {
        lastInsertRowid: number | bigint;
      };
      const chunk = Number(lastInsertRowid);
      insertRecentChunk.run(c.entityId, c.firstAt, chunk, c.lastAt);
      firstChunk ??= chunk;
      const h = c.idHashes;
      for (let i = 0; i < h.length; i += 2) {
        idHashes.push(h[i + 1] as number);
        offsets.push(chunk - firstChunk);
        // Before the commit is reported: from then on the simulator's thread finds them by the filter.
        if (b.segment) addBits(b.segment, h[i] as number, h[i + 1] as number);
      }
    }
    if (firstChunk !== undefined)
      for (const [bucket, entries] of bucketRows(idHashes, offsets))
        insertBucket.run(n, bucket, firstChunk, entries);
    for (const [entityId, first, text] of activityRows(b.activity))
      insertActivity.run(entityId, first, n, text);
    for (const id of b.placedIds) savePlacedId.run(n, id);
    if (b.doc !== undefined) saveDoc.run(b.doc, n);
    if (b.merge) {
      for (const statement of merge) statement.run(n);
      clearRecent.run();
      clearRecentActivity.run();
    }
    if (b.marketKeys) {
      clearMarketKeys.run();
      for (const id of b.marketKeys) saveMarketKey.run(id);
    }
    // Copies of the shared bits, now that every eviction they count has set its own.
    for (const seg of b.filter ?? [])
      saveSegment.run(seg.index, seg.first, seg.last, seg.ids, Buffer.from(seg.bits));
  });
  return { db, write };
}

try {
  const { db, write } = open();
  report(slots.started, 1);
  parentPort?.on('message', (m: WriterMessage) => {
    if (Atomics.load(state, slots.failed)) return;
    try {
      if ('close' in m) {
        db.close();
        report(slots.closed, 1);
        parentPort?.close();
        return;
      }
      write(m.batch);
      report(slots.committed, m.batch.eviction);
    } catch (err) {
      fail(err);
    }
  });
} catch (err) {
  fail(err);
}
