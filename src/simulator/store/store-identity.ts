/**
 * Whether a `store` file is this simulator's, told before anything writes it: a file that is not
 * is refused exactly as it was found (no journal-mode change, no write, no -wal or -shm file
 * created). The store's own files carry APPLICATION_ID in their header (store-file.ts); a file of
 * the layout before it (user_version 6, application_id 0) is taken on when its tables are exactly
 * the store's, and gets the id then; anything else is another application's or another version's.
 */
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database, DatabaseConstructor } from './sqlite.js';
import { APPLICATION_ID, LAYOUT, SCHEMA, type StoreFileKind, StoreLayoutError } from './store-file.js';

/** What SQLite reads of a file: its header's two numbers and its schema's rows. */
interface Identity {
  applicationId: number;
  userVersion: number;
  /** `type name tbl_name sql` of each sqlite_master row, sorted; undefined when it cannot be read. */
  schema: string[] | undefined;
  /** Why the schema could not be read. */
  unreadable?: string;
}

const MAGIC = 'SQLite format 3\0';

/** The rows a store's schema has in sqlite_master (SCHEMA run on an empty database). */
let storeSchema: string[] | undefined;

function schemaRows(db: Database): string[] {
  const rows = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master').all() as {
    type: string;
    name: string;
    tbl_name: string;
    sql: string | null;
  }[];
  return rows.map((r) => `${r.type} ${r.name} ${r.tbl_name} ${r.sql ?? ''}`).sort();
}

function read(db: Database): Identity {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const userVersion = db.pragma('user_version', { simple: true }) as number;
  return { applicationId, userVersion, schema: schemaRows(db) };
}

/**
 * The file's identity through a read-only connection: on the file itself when its -wal and -shm
 * exist (the WAL may hold what the file does not yet: a store whose process was killed), which then
 * creates nothing; else on a copy of its first page, which holds the header and, for a schema as
 * small as the store's, all of sqlite_master. A read-only connection to a WAL-mode file without
 * them creates both, and better-sqlite3 has no URI filenames (`immutable=1`) to avoid that. (A
 * schema past the first page reads as unreadable: such a file is refused, and the store's is far
 * smaller.)
 */
function inspect(Sqlite: DatabaseConstructor, file: string, header: Buffer, size: number): Identity {
  const fromDb = (path: string): Identity => {
    const db = new Sqlite(path, { readonly: true, fileMustExist: true });
    try {
      return read(db);
    } catch (err) {
      return {
        applicationId: header.readInt32BE(68),
        userVersion: header.readInt32BE(60),
        schema: undefined,
        unreadable: (err as Error).message,
      };
    } finally {
      db.close();
    }
  };
  if (existsSync(`${file}-wal`) && existsSync(`${file}-shm`)) return fromDb(file);
  const pageSize = header.readUInt16BE(16);
  const page = Buffer.alloc(pageSize === 1 ? 65_536 : pageSize);
  // Closing a descriptor drops every POSIX lock this process holds on the file, SQLite's too: safe
  // here, as no simulator of this process has it open (its lock is held).
  const fd = openSync(file, 'r');
  try {
    readSync(fd, page, 0, page.length, 0);
  } finally {
    closeSync(fd);
  }
  // The copy as a rollback-journal database (no WAL to look for) of the file's length, its other
  // pages a hole (sparse: nothing written): SQLite checks each table's root page is in the file.
  page[18] = 1;
  page[19] = 1;
  const dir = mkdtempSync(join(tmpdir(), 'match-venue-store-'));
  try {
    const copy = join(dir, 'page1.db');
    writeFileSync(copy, page);
    truncateSync(copy, Math.max(size, page.length));
    return fromDb(copy);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What `file` is; throws StoreLayoutError, having changed nothing, when it is not this simulator's
 * store. Call it holding the store's lock (store-lock.ts), before any writable connection.
 */
export function identifyStoreFile(Sqlite: DatabaseConstructor, file: string): StoreFileKind {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new StoreLayoutError(`store ${file} is not a file; name a file`);
    size = stat.size;
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return 'new';
    throw err;
  }
  const walSize = existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0;
  if (size === 0 && walSize === 0) return 'new';
  const refusal = (what: string) =>
    new StoreLayoutError(
      `store ${file} is not a match-venue simulator store this version reads (${what}); nothing was changed: use another file`,
    );
  // The header first (as above, a descriptor of its own): a file that is not SQLite is not opened.
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString('latin1', 0, 16) !== MAGIC) throw refusal('not an SQLite database');
  const id = inspect(Sqlite, file, header, size);
  if (id.applicationId === APPLICATION_ID) {
    if (id.userVersion === LAYOUT) return 'store';
    throw new StoreLayoutError(
      `store ${file} was written by another version of the simulator (layout ${id.userVersion}, this one reads ${LAYOUT}); use a new file`,
    );
  }
  if (id.applicationId === 0 && id.userVersion === LAYOUT && id.schema !== undefined) {
    if (storeSchema === undefined) {
      const db = new Sqlite(':memory:');
      db.exec(SCHEMA);
      storeSchema = schemaRows(db);
      db.close();
    }
    if (id.schema.join('\n') === storeSchema.join('\n')) return 'adopt';
  }
  const tables = id.schema
    ?.filter((row) => row.startsWith('table '))
    .map((row) => row.split(' ')[1])
    .join(', ');
  throw refusal(
    `application_id ${id.applicationId}, user_version ${id.userVersion}, ` +
      (tables === undefined ? `schema unreadable: ${id.unreadable}` : `tables: ${tables || 'none'}`),
  );
}
