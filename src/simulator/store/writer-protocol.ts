/**
 * What the store's two threads share (writer.ts on the simulator's thread, writer-thread.ts on its
 * own): the batch an eviction sends, and the slots of the shared Int32Array the writer reports in.
 * The simulator's thread waits on those slots with Atomics.wait, so a read can wait for the file
 * without giving up its synchronous call (getOrder, a listing and a placement are synchronous in
 * the engine).
 */
import type { MessagePort } from 'node:worker_threads';
import type { PackedActivity } from './activity-pack.js';
import type { SavedSegment } from './id-filter.js';
import type { PackedOrders } from './order-pack.js';

/** One eviction: its orders and activity packed (the thread makes their rows). */
export interface Batch {
  /** The eviction's number: rows carry it, and COMMITTED reports it. */
  eviction: number;
  /** The evicted orders (order-pack.ts), their buffers transferred. */
  orders: PackedOrders;
  /** The drained activity entries (activity-pack.ts), their numbers' buffer transferred. */
  activity: PackedActivity;
  /** The checkpoint document taken after this eviction, when one is due. */
  doc?: string | undefined;
  /**
   * Whether what was evicted since the last merge joins the indexes after this eviction (always
   * with a checkpoint: store-file.ts).
   */
  merge: boolean;
  /**
   * The id filter's segment (shared memory) that takes the orders' ids: the thread sets their bits
   * before it reports the commit (id-filter.ts addBits); none when no order left.
   */
  segment?: Uint32Array | undefined;
  /** With a checkpoint: the id filter's segments changed since the last one, to copy and save. */
  filter?: SavedSegment[] | undefined;
  /** With a checkpoint: every stored id the market may yet make (order-store.ts), to save. */
  marketKeys?: string[] | undefined;
  /** The orders' ids placed by callers, not the market (order-store.ts placedIds). */
  placedIds: string[];
}

/** A message to the writer thread. */
export type WriterMessage = { batch: Batch } | { close: true };

/** Where the writer thread reports, as indexes of the shared Int32Array. */
export const SLOTS = {
  /** The number of the last eviction committed. */
  committed: 0,
  /** 1 once a write failed (the text follows on the error port). */
  failed: 1,
  /** 1 once the writer closed the file. */
  closed: 2,
  /** 1 once the writer opened the file. */
  started: 3,
} as const;

/** The writer thread's workerData. */
export interface WriterSetup {
  file: string;
  /** The resolved path of better-sqlite3 (the thread loads the simulator's copy). */
  sqlite: string;
  /** An Int32Array's buffer, SLOTS long. */
  state: SharedArrayBuffer;
  slots: typeof SLOTS;
  /** Where a failed write's text goes. */
  errors: MessagePort;
}
