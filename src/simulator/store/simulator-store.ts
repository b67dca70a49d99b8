/**
 * `store` (createSimulator) / `--store <file>` (CLI): the simulator's memory holds the open book
 * and a retention window; older final orders live in a SQLite file, and the file carries a
 * checkpoint so that a simulator created on it again resumes there.
 *
 * At the end of an engine step, once `retainMs` of simulated time passed since the last eviction,
 * the final orders of auctions cleared more than `retainMs` ago leave memory for the file (memory
 * then holds between one and two windows of orders), with the account activity entries of those
 * auctions (account summaries read the sums before memory's first entry from the file). Every
 * `checkpointMs` the same transaction also writes the snapshot document (snapshot/document.ts) of what
 * stays: a simulator created on the file resumes at the last checkpoint (order-store.ts keeps that
 * consistent). `close()` writes a last one, so a clean stop loses nothing.
 */
import type { ActivityEntry } from '../engine/account.js';
import type { EvictedBatch } from '../engine/eviction.js';
import type { OrderArchive } from '../engine/order-archive.js';
import { storeArchive } from './listing.js';
import { OrderStore } from './order-store.js';
import { loadSqlite, type ModuleLoader } from './sqlite.js';
import { StoreWriteError } from './writer.js';

/** `store`: a file, or a file and how long final orders stay in memory. */
export type StoreOption =
  | string
  | {
      /** The SQLite file (created if absent). */
      file: string;
      /** How long (simulated ms) a final order stays in memory after its auction cleared; default 60,000. */
      retainMs?: number;
      /**
       * How often (simulated ms) the file gets a checkpoint to resume from; default 1,800,000 (30
       * minutes). A process that stops without close() resumes at the last one.
       */
      checkpointMs?: number;
    };

/** Default retention: 60 s of simulated time (6 auctions of 10 s). */
export const DEFAULT_RETAIN_MS = 60_000;
/**
 * Default checkpoint interval: 30 simulated minutes. A checkpoint writes the whole document of what
 * stays in memory (about 25 MB with the day bench's busy market: 0.1 s on the simulator's thread
 * and more on the writer's), so at every eviction it took a third of a long run, and every 10
 * minutes still a tenth of a fast day (day bench: 124 s against 112 s at 30 minutes). A crash
 * loses at most this much simulated time: seconds of a fast run, half an hour of a real-time one.
 */
export const DEFAULT_CHECKPOINT_MS = 1_800_000;

/** What a store takes from its simulator: the running engine's batches, and documents of the rest. */
export interface StoreSource {
  /** Simulated now (ms). */
  now(): number;
  /** The running engine's eviction (VenueEngine.evict): what leaves memory at a cutoff. */
  evict(cutoffMs: number): EvictedBatch;
  /** The simulator's snapshot document, for a checkpoint (it steps the engine first). */
  document(): unknown;
}

export class SimulatorStore {
  /** What the engine's listing and getOrder read from the file. */
  readonly archive: OrderArchive;
  readonly retainMs: number;
  readonly checkpointMs: number;
  private readonly orders: OrderStore;
  private lastEvictionAt: number | null = null;
  private lastCheckpointAt: number | null = null;
  private busy = false;
  private closed = false;
  private failure: StoreWriteError | undefined;

  private constructor(
    orders: OrderStore,
    private readonly source: StoreSource,
    retainMs: number,
    checkpointMs: number,
  ) {
    this.orders = orders;
    this.retainMs = retainMs;
    this.checkpointMs = checkpointMs;
    this.archive = storeArchive(orders);
  }

  /** Opens (or creates) the file; throws StoreUnavailableError without better-sqlite3. */
  static open(option: StoreOption, source: StoreSource, load?: ModuleLoader): SimulatorStore {
    const {
      file,
      retainMs = DEFAULT_RETAIN_MS,
      checkpointMs = DEFAULT_CHECKPOINT_MS,
    } = typeof option === 'string' ? { file: option } : option;
    if (typeof file !== 'string' || file === '') throw new RangeError('store must name a file');
    // One per connection: the writer thread's would be another, empty, database.
    if (file === ':memory:') throw new RangeError("store must name a file on disk, not ':memory:'");
    if (!Number.isInteger(retainMs) || retainMs < 1)
      throw new RangeError('store.retainMs must be a positive integer of milliseconds');
    if (!Number.isInteger(checkpointMs) || checkpointMs < 1)
      throw new RangeError('store.checkpointMs must be a positive integer of milliseconds');
    return new SimulatorStore(new OrderStore(loadSqlite(load), file), source, retainMs, checkpointMs);
  }

  /** The last checkpoint's snapshot document, to resume from; undefined for a new file. */
  resumeDocument(): unknown {
    const text = this.orders.lastCheckpoint();
    return text === undefined ? undefined : JSON.parse(text);
  }

  /**
   * After an engine step: an eviction when a window passed, with a checkpoint when one is due.
   * The checkpoint's document steps the engine again: `busy` keeps that from evicting inside this.
   */
  afterStep(): void {
    if (this.busy || this.closed || this.failure) return;
    const now = this.source.now();
    this.lastEvictionAt ??= now;
    this.lastCheckpointAt ??= now;
    if (now - this.lastEvictionAt < this.retainMs) return;
    try {
      this.evict(now, now - this.lastCheckpointAt >= this.checkpointMs);
    } catch (err) {
      // Thrown once, by this step; from here on nothing leaves memory (the file cannot take it),
      // and `close()` throws it again.
      if (err instanceof StoreWriteError) this.failure = err;
      throw err;
    }
  }

  /** Evicts what is old enough; with `checkpoint`, commits the document of the rest with it. */
  private evict(now: number, checkpoint: boolean): void {
    this.busy = true;
    try {
      // Before anything leaves memory: a writer that failed takes nothing more, so nothing is lost.
      this.orders.ready();
      const batch = this.source.evict(now - this.retainMs);
      const doc = checkpoint ? JSON.stringify(this.source.document()) : undefined;
      this.orders.evict(batch, doc);
      this.lastEvictionAt = now;
      if (checkpoint) this.lastCheckpointAt = now;
    } finally {
      this.busy = false;
    }
  }

  /**
   * A reset or a restore starts another history: the stored orders belong to the old one, so
   * they go, and the new state is the checkpoint: `doc`, taken without a step (one would act on
   * the old history's file). `baselines`: what the new state's activity logs count before their
   * first entries (VenueEngine.activityBaselines).
   */
  restart(doc: unknown, baselines: ActivityEntry[]): void {
    this.busy = true;
    const now = this.source.now();
    try {
      this.orders.replaceAll(JSON.stringify(doc), baselines);
      this.lastEvictionAt = now;
      this.lastCheckpointAt = now;
    } finally {
      this.busy = false;
    }
  }

  /**
   * A last checkpoint, then the file closes; a second close does nothing. Throws the writer's
   * failure, an earlier one or that of this last checkpoint (the file and its thread are closed
   * all the same).
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (!this.failure) this.evict(this.source.now(), true);
    } finally {
      this.orders.close();
    }
  }
}
