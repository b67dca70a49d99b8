/**
 * The store's SQLite file as it lies on disk: its tables, the application id and layout number that
 * name it, and what opening it does (the pragmas, dropping what was written after the last
 * checkpoint). Whether a file is a store is told before it is opened for writing
 * (store-identity.ts), under the store's lock (store-lock.ts). order-store.ts reads and writes it;
 * writer-thread.ts writes it.
 */

import { MatchVenueError } from '../../contract/base-error.js';
import type { Database, DatabaseConstructor } from './sqlite.js';

// `chunks`: a rowid table, so chunks append in eviction order to packed pages. An entity's chunks
// are found by the time they span (an order may stay pending past the window, so a later chunk
// can hold an older order: spans overlap, and a listing sorts what it reads). Each eviction notes
// its chunks in `recent_chunks` (appended, no index); every MERGE_EVERY evictions and at each
// checkpoint they move, as one merge, to `chunk_index`, sorted by entity within the merge and
// keyed by the merge first, so every merge appends too. An index keyed by entity alone took an
// insert at every entity's place: at each eviction it was a quarter of the writer thread's time,
// and at each checkpoint it still wrote a page per entity, more as the file grew (a stored day's
// last hours ran a third slower than its first). A listing reads the entity's part of each merge
// whose span (`merges`) meets its window, and `recent_chunks`. A merge is numbered by its eviction,
// so opening the file drops what came after the checkpoint from both: the merges past it (a range
// of the keys) and every recent row (a checkpoint merges). `activity` and `recent_activity`
// likewise: an entity's drained entries of one eviction as [at, matched, rebates, fees] rows, the
// sums cumulative. `id_buckets` leads from an id to its chunk, for getOrder and a reused key
// (id-buckets.ts); keyed by eviction first, so each eviction appends, and the id filter names the
// evictions to look in. `eviction` numbers the transaction that wrote a row (order-store.ts:
// checkpoints and evictions).
/**
 * Evictions between merges when no checkpoint merges first: a listing scans what is not merged
 * yet (about 1,000 rows an eviction with the day bench's market), so this bounds the scan however
 * far apart checkpoints are.
 */
export const MERGE_EVERY = 10;

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS chunks (
  chunk INTEGER PRIMARY KEY, entity_id TEXT NOT NULL, first_at INTEGER NOT NULL,
  last_at INTEGER NOT NULL, orders BLOB NOT NULL, eviction INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS merges (
  merge INTEGER PRIMARY KEY, first_at INTEGER, last_at INTEGER
);
CREATE TABLE IF NOT EXISTS chunk_index (
  merge INTEGER NOT NULL, entity_id TEXT NOT NULL, first_at INTEGER NOT NULL, chunk INTEGER NOT NULL,
  last_at INTEGER NOT NULL, PRIMARY KEY (merge, entity_id, first_at, chunk)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS recent_chunks (
  entity_id TEXT NOT NULL, first_at INTEGER NOT NULL, chunk INTEGER NOT NULL, last_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS id_buckets (
  eviction INTEGER NOT NULL, bucket INTEGER NOT NULL, first_chunk INTEGER NOT NULL, entries BLOB NOT NULL,
  PRIMARY KEY (eviction, bucket)
);
CREATE TABLE IF NOT EXISTS activity (
  merge INTEGER NOT NULL, entity_id TEXT NOT NULL, first_at INTEGER NOT NULL, eviction INTEGER NOT NULL,
  entries TEXT NOT NULL, PRIMARY KEY (merge, entity_id, first_at, eviction)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS recent_activity (
  entity_id TEXT NOT NULL, first_at INTEGER NOT NULL, eviction INTEGER NOT NULL, entries TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS id_filter (
  segment INTEGER PRIMARY KEY, first INTEGER NOT NULL, last INTEGER NOT NULL, ids INTEGER NOT NULL,
  bits BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS market_keys (order_id TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS placed_ids (
  eviction INTEGER NOT NULL, order_id TEXT NOT NULL, PRIMARY KEY (eviction, order_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS checkpoint (
  id INTEGER PRIMARY KEY CHECK (id = 1), doc TEXT NOT NULL, eviction INTEGER NOT NULL
);
`;

/**
 * The file layout this code writes (`PRAGMA user_version`); another is refused, not misread. (3
 * was 4 without the saved id filter: opened here, it would answer "no" for ids it holds; 4 kept a
 * row per id; 5 indexed chunks by entity at each eviction, so its unindexed chunks would be missed.)
 */
export const LAYOUT = 6;

/**
 * `PRAGMA application_id` of a store ('MVSM' in ASCII), written when the file is created: a file
 * without it is not taken for a store (store-identity.ts), whatever its user_version says. Stores
 * written before it (layout 6, id 0) are taken on when their tables are exactly these, and get it.
 */
export const APPLICATION_ID = 0x4d56534d;

/** The store's tables, by name (read off SCHEMA): a reset empties these and nothing else of the file. */
const STORE_TABLES = [...SCHEMA.matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)].map((m) => m[1] as string);

/**
 * A `store` file this simulator does not read: another layout of the store (an older simulator),
 * or no store at all (another application's database, not SQLite). Thrown before anything wrote
 * the file: use a new one.
 */
export class StoreLayoutError extends MatchVenueError {
  static override readonly kind = 'SIM_STORE_LAYOUT';
  /** Always `StoreLayoutError`. */
  override name = 'StoreLayoutError';
}

/**
 * What every connection to the file sets (this thread's and the writer thread's). WAL: an
 * eviction's transaction appends instead of rewriting pages. No fsync (synchronous OFF): WAL stays
 * consistent when the process dies at any point, and only a machine crash or power loss could
 * lose recent transactions, which a simulator's history can afford; the fsyncs were a third of the
 * insert time (measured with a row per order: 1M rows, 14.6 s -> 10.0 s).
 */
export function tuneConnection(db: Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
}

/**
 * Empties the store's tables but the checkpoint (a reset or restore starts another history), in
 * the caller's transaction. By name: a table someone added to the file is not the simulator's.
 */
export function clearHistory(db: Database): void {
  for (const table of STORE_TABLES) if (table !== 'checkpoint') db.exec(`DELETE FROM ${table}`);
}

/** What opening does with the file: create the store, open it, or take on a store without the id. */
export type StoreFileKind = 'new' | 'store' | 'adopt';

/**
 * Opens the file for writing as `kind` says (store-identity.ts told it, under the lock): creates
 * a new store, opens one, or takes on one of the layout before the application id.
 */
export function openStoreFile(Sqlite: DatabaseConstructor, file: string, kind: StoreFileKind): Database {
  const db = new Sqlite(file);
  if (kind === 'new') {
    // 64 kB pages (set before the first table; a file keeps its own): a chunk (about 10 kB) fits a
    // page instead of spilling over three. They cost more than they saved while an eviction added to
    // the entity index at every entity's place (a page is written whole: a stored day took 265 s
    // against 220 s with 4 kB); since the indexes append in merges (SCHEMA), the writer thread's
    // time for 1,000 auctions fell from 8.5 to 5.8 s with them.
    db.pragma('page_size = 65536');
    // Before WAL: written to the file's own header, where the next opener reads them first.
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${LAYOUT}`);
  }
  // The simulator thread's connection reads (and opens, resets); the writer thread has its own.
  tuneConnection(db);
  if (kind === 'adopt') db.pragma(`application_id = ${APPLICATION_ID}`);
  db.exec(SCHEMA);
  return db;
}

/**
 * Drops the rows written after the file's last checkpoint and answers its eviction number (0
 * without one). Call it once no writer thread of this process still writes the file.
 */
export function dropPastCheckpoint(db: Database): number {
  // Rows evicted after the last checkpoint belong to its memory (a stop without close()); with no
  // checkpoint at all, to a run that never wrote one, whose memory is gone.
  const last = db.prepare('SELECT eviction FROM checkpoint WHERE id = 1').get() as
    | { eviction: number }
    | undefined;
  const eviction = last?.eviction ?? 0;
  // Chunks by rowid, which grows with the eviction: from the first chunk an id bucket of a later
  // eviction names (every eviction that wrote chunks wrote buckets in the same transaction). By
  // `eviction` it was a scan of the whole table (most of the 4 s a stored day's file took to open).
  db.prepare(
    'DELETE FROM chunks WHERE chunk >= (SELECT min(first_chunk) FROM id_buckets WHERE eviction > ?)',
  ).run(eviction);
  db.prepare('DELETE FROM id_buckets WHERE eviction > ?').run(eviction);
  db.prepare('DELETE FROM placed_ids WHERE eviction > ?').run(eviction);
  // Merges past the checkpoint (the end of each index's keys), and every recent row: a checkpoint
  // merged those before it.
  for (const table of ['merges', 'chunk_index', 'activity'])
    db.prepare(`DELETE FROM ${table} WHERE merge > ?`).run(eviction);
  db.exec('DELETE FROM recent_chunks; DELETE FROM recent_activity');
  return eviction;
}
