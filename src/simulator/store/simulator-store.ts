/**
 * `store` (createSimulator) / `--store <file>` (CLI): the simulator's memory holds the open book
 * and a retention window; older final orders live in a SQLite file, and the file carries a
 * checkpoint so that a simulator created on it again resumes there.
 *
 * A checkpoint runs at the end of an engine step once `retainMs` of simulated time passed since
 * the last: it evicts the final orders of auctions cleared more than `retainMs` ago and, in the
 * same transaction, writes them and the snapshot document (snapshot.ts) of what stays. Evicting
 * only at checkpoints keeps the file consistent at every commit; memory then holds between one
 * and two windows of orders. `close()` writes a last checkpoint, so a clean stop loses nothing.
 */
import { toWireOrder } from '../engine/rest-shapes.js';
import type { EngineState } from '../engine/state.js';
import type { Order } from '../engine/types.js';
import type { OrderArchive } from '../engine/order-archive.js';
import { storeArchive } from './listing.js';
import { OrderStore, type StoredOrder } from './order-store.js';
import { loadSqlite, type ModuleLoader } from './sqlite.js';
import { evictFinalOrders } from './retention.js';

/** `store`: a file, or a file and how long final orders stay in memory. */
export type StoreOption =
  | string
  | {
      /** The SQLite file (created if absent). */
      file: string;
      /** How long (simulated ms) a final order stays in memory after its auction cleared; default 60,000. */
      retainMs?: number;
    };

/** Default retention: 60 s of simulated time (6 auctions of 10 s). */
export const DEFAULT_RETAIN_MS = 60_000;

export class SimulatorStore {
  /** What the engine's listing and getOrder read from the file. */
  readonly archive: OrderArchive;
  readonly retainMs: number;
  private readonly orders: OrderStore;
  private lastCheckpointAt: number | null = null;
  private busy = false;
  private closed = false;

  private constructor(orders: OrderStore, retainMs: number) {
    this.orders = orders;
    this.retainMs = retainMs;
    this.archive = storeArchive(orders);
  }

  /** Opens (or creates) the file; throws StoreUnavailableError without better-sqlite3. */
  static open(option: StoreOption, load?: ModuleLoader): SimulatorStore {
    const { file, retainMs = DEFAULT_RETAIN_MS } = typeof option === 'string' ? { file: option } : option;
    if (typeof file !== 'string' || file === '') throw new RangeError('store must name a file');
    if (!Number.isInteger(retainMs) || retainMs < 1)
      throw new RangeError('store.retainMs must be a positive integer of milliseconds');
    return new SimulatorStore(new OrderStore(loadSqlite(load), file), retainMs);
  }

  /** The last checkpoint's snapshot document, to resume from; undefined for a new file. */
  resumeDocument(): unknown {
    const text = this.orders.lastCheckpoint();
    return text === undefined ? undefined : JSON.parse(text);
  }

  /**
   * After an engine step: a checkpoint when a window passed. `snapshot` takes the simulator's
   * document (it steps the engine again; `busy` keeps that from checkpointing inside this one).
   */
  afterStep(state: EngineState, now: number, snapshot: () => unknown): void {
    if (this.busy || this.closed) return;
    if (this.lastCheckpointAt === null) this.lastCheckpointAt = now;
    if (now - this.lastCheckpointAt < this.retainMs) return;
    this.checkpoint(state, now, snapshot);
  }

  /** Evicts what is old enough and commits it with the document of the rest. */
  checkpoint(state: EngineState, now: number, snapshot: () => unknown): void {
    this.busy = true;
    try {
      const evicted = evictFinalOrders(state, now - this.retainMs).map(stored);
      this.orders.checkpoint(evicted, JSON.stringify(snapshot()));
      this.lastCheckpointAt = now;
    } finally {
      this.busy = false;
    }
  }

  /**
   * A reset or a restore starts another history: the stored orders belong to the old one, so
   * they go, and the new state is the checkpoint.
   */
  restart(now: number, snapshot: () => unknown): void {
    this.busy = true;
    try {
      this.orders.replaceAll(JSON.stringify(snapshot()));
      this.lastCheckpointAt = now;
    } finally {
      this.busy = false;
    }
  }

  /** A last checkpoint, then the file closes; a second close does nothing. */
  close(state: EngineState, now: number, snapshot: () => unknown): void {
    if (this.closed) return;
    this.checkpoint(state, now, snapshot);
    this.closed = true;
    this.orders.close();
  }
}

// The order's REST shape is written once: a final order's never changes again.
function stored(o: Order): StoredOrder {
  return {
    orderId: o.orderId,
    entityId: o.entityId,
    createdAt: o.createdAt,
    status: o.status,
    orderType: o.orderType,
    wire: toWireOrder(o),
  };
}
