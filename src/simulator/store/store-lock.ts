/**
 * One simulator per store file, across processes: a second opener of a file in use is refused
 * before it reads or writes the file. Opening a store drops the rows written after its last
 * checkpoint (store-file.ts dropPastCheckpoint), which for a file another simulator still runs on
 * are that simulator's evicted orders: without this lock they answered 404 from then on.
 *
 * The lock is an SQLite write lock held on a small database next to the store, `<file>.lock`:
 * this module opens it and keeps a write transaction open (`BEGIN IMMEDIATE`, SQLite's RESERVED
 * lock) from before the store file is read until after both of the store's connections closed,
 * the writer thread's included (order-store.ts). Why this one:
 * - SQLite's locks are the operating system's file locks (POSIX fcntl on Linux and macOS,
 *   LockFileEx on Windows), which the system releases when the process ends, however it ends: a
 *   simulator killed with SIGKILL leaves no lock behind, so nothing is ever stale and no pid has to
 *   be judged alive (a lock file created with O_EXCL holding a pid is stale after a kill -9, and a
 *   pid is reused or means nothing in another container).
 * - SQLite also tracks the locks of every connection of this process by file, so a second
 *   simulator of the same process (or a worker thread) is refused too, which fcntl alone does not
 *   do; and it needs nothing beyond the better-sqlite3 the store already loads.
 * - Not on the store file itself: `PRAGMA locking_mode = EXCLUSIVE` there would also shut out the
 *   writer thread's own connection (writer-thread.ts), and in WAL mode a connection holds no lock
 *   that keeps another process from opening the file, reading it and deleting rows.
 * RESERVED rather than EXCLUSIVE: other connections can still read the lock database, so a
 * refused opener names the holder's pid, which the holder wrote there before it took the lock.
 * The lock file stays after close (it holds no data): deleting it while a second opener has it
 * open would let a third create another and both run.
 */
import { existsSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { MatchVenueError } from '../../contract/base-error.js';
import type { Database, DatabaseConstructor } from './sqlite.js';

/** `store` names a file another simulator (of this process or another) has open. */
export class StoreInUseError extends MatchVenueError {
  static override readonly kind = 'SIM_STORE_IN_USE';
  /** Always `StoreInUseError`. */
  override name = 'StoreInUseError';
}

/** A held store lock; `release` lets it go (again: nothing). */
export interface StoreLock {
  /**
   * `discard`: the file was refused, and the lock file goes too if this lock created it (nothing
   * is left next to another application's file; any simulator opening it meanwhile is refused too).
   */
  release(discard?: boolean): void;
}

/**
 * `<file>.lock`, by the file's real path (or its directory's, for a new file): two names of one
 * file (a relative path, a symbolic link) take one lock.
 */
function lockPathOf(file: string): string {
  try {
    return `${realpathSync(file)}.lock`;
  } catch {
    try {
      return join(realpathSync(dirname(resolve(file))), `${basename(file)}.lock`);
    } catch {
      return `${resolve(file)}.lock`;
    }
  }
}

/** Takes the write lock without waiting; false when another connection holds it. */
function tryBegin(db: Database): boolean {
  try {
    db.exec('BEGIN IMMEDIATE');
    return true;
  } catch (err) {
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY') return false;
    throw err;
  }
}

/** The pid the holder wrote, if it can be read now (not while the holder commits it). */
function holderPid(db: Database): number | undefined {
  try {
    const pid = db.prepare('SELECT pid FROM holder WHERE id = 1').pluck().get();
    return typeof pid === 'number' ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes `file`'s lock or throws StoreInUseError naming its holder; call before opening the file. */
export function lockStore(Sqlite: DatabaseConstructor, file: string): StoreLock {
  const path = lockPathOf(file);
  const existed = existsSync(path);
  let db: Database;
  try {
    // No wait: a lock held now is held by a running simulator.
    db = new Sqlite(path, { timeout: 0 });
  } catch (err) {
    throw new Error(`store ${file}: cannot open its lock file ${path}: ${(err as Error).message}`);
  }
  const refuse = (): never => {
    const pid = holderPid(db);
    db.close();
    const who =
      pid === undefined
        ? `its lock ${path} is held`
        : `pid ${pid}${pid === process.pid ? ', this process' : ''}`;
    throw new StoreInUseError(
      `store ${file} is in use by another simulator (${who}); stop it or use another file`,
    );
  };
  try {
    // The pid is committed before the lock is taken for good (readers see only what is committed);
    // an opener that wrote its own in between is refused at its second BEGIN, and the holder
    // writes its pid again.
    for (;;) {
      if (!tryBegin(db)) refuse();
      db.exec(
        'CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL)',
      );
      db.prepare('INSERT OR REPLACE INTO holder (id, pid) VALUES (1, ?)').run(process.pid);
      db.exec('COMMIT');
      if (!tryBegin(db)) refuse();
      if (holderPid(db) === process.pid) break;
      db.exec('ROLLBACK');
    }
  } catch (err) {
    if (err instanceof StoreInUseError) throw err;
    db.close();
    throw new Error(
      `store ${file}: cannot take its lock ${path} (${(err as Error).message}); if no simulator runs on ${file}, delete ${path}`,
    );
  }
  let held = true;
  return {
    release(discard = false) {
      if (!held) return;
      held = false;
      db.exec('ROLLBACK');
      db.close();
      if (discard && !existed) rmSync(path, { force: true });
    },
  };
}
