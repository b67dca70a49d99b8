/**
 * better-sqlite3, loaded only when a simulator is given a `store`: it is an optional peer dependency
 * (a native module a bot that never uses `store` should not download or compile), so a simulator without a store never loads it and an install that skipped it
 * still works. Only the few calls the store makes are typed here, so no @types package is needed.
 */
import { createRequire } from 'node:module';
import { MatchVenueError } from '../../contract/base-error.js';

/** A prepared statement, as far as the store uses one. */
export interface Statement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** Rows as their first column's value. */
  pluck(): Statement;
}

/** A database connection, as far as the store uses one. */
export interface Database {
  prepare(sql: string): Statement;
  exec(sql: string): unknown;
  pragma(sql: string, options?: { simple: boolean }): unknown;
  transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
  close(): unknown;
}

/** The constructor's options the store sets (better-sqlite3's names). */
export interface DatabaseOptions {
  /** Opens without write access: nothing is written, no journal mode changes. */
  readonly?: boolean;
  /** Throws instead of creating a missing file. */
  fileMustExist?: boolean;
  /** How long a statement waits for another connection's lock (ms; better-sqlite3's default: 5,000). */
  timeout?: number;
}

/** better-sqlite3's default export: `new Database(file, options?)`. */
export type DatabaseConstructor = new (file: string, options?: DatabaseOptions) => Database;

/** The exact command that installs the driver, named by the error (12.x: 13.x needs Node 22). */
export const SQLITE_INSTALL = 'npm install --save-exact better-sqlite3@12.9.0';

/**
 * `store` was given but cannot run here: better-sqlite3 cannot be loaded, or the writer thread has
 * no file to start from (writer-entry.ts). The message names what to install or build.
 */
export class StoreUnavailableError extends MatchVenueError {
  static override readonly kind = 'SIM_STORE_UNAVAILABLE';
  /** Always `StoreUnavailableError`. */
  override name = 'StoreUnavailableError';
}

/** Loads a module by name (tests inject one that fails, to see the error users would). */
export type ModuleLoader = (name: string) => unknown;

const requireHere: ModuleLoader = (name) => createRequire(import.meta.url)(name);

/** better-sqlite3's constructor; throws StoreUnavailableError naming the install command. */
export function loadSqlite(load: ModuleLoader = requireHere): DatabaseConstructor {
  let mod: unknown;
  try {
    mod = load('better-sqlite3');
  } catch (err) {
    throw new StoreUnavailableError(
      `store needs better-sqlite3 (12.x, an optional peer dependency), which could not be loaded ` +
        `(${err instanceof Error ? err.message.split('\n')[0] : String(err)}); install it with: ${SQLITE_INSTALL}`,
      { cause: err },
    );
  }
  const ctor = (mod as { default?: unknown }).default ?? mod;
  if (typeof ctor !== 'function')
    throw new StoreUnavailableError(
      `better-sqlite3 did not load as expected; reinstall it with: ${SQLITE_INSTALL}`,
    );
  return ctor as DatabaseConstructor;
}
