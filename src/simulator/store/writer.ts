/**
 * The simulator's side of the store's writer thread (writer-thread.ts): each eviction's batch is
 * posted and the simulator goes on trading while the thread inserts it. Until its commit is
 * reported, the batch stays here and is read from here (`held`): a getOrder, a reused key and an
 * activity sum look here first, then in the file; a listing, which counts, waits for the file
 * (`flush`). A batch whose write failed stays here for good, so nothing leaves both memory and file.
 */
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { MatchVenueError } from '../../contract/base-error.js';
import type { ActivityEntry } from '../engine/account.js';
import type { Order } from '../engine/types.js';
import { groupByEntity } from '../engine/group-by.js';
import { writerEntry } from './writer-entry.js';
import { type Batch, SLOTS, type WriterMessage, type WriterSetup } from './writer-protocol.js';

/**
 * Batches posted and not yet committed before an eviction waits: bounds the memory they hold. Four:
 * a checkpoint's batch (its document, the indexes' merge) takes several evictions' time to write,
 * and with two the simulator's thread waited for it (a stored day: 1.7 s in its first 4,800
 * auctions, none with four).
 */
export const MAX_IN_FLIGHT = 4;
/** How long a wait allows the thread to start; past it, it died before it could say so. */
const START_TIMEOUT_MS = 30_000;

/**
 * The store could not write its file (the message says why). Thrown once, by the step whose
 * eviction found it, and again by `close()`; the simulator goes on with everything in memory.
 */
export class StoreWriteError extends MatchVenueError {
  static override readonly kind = 'SIM_STORE_WRITE_FAILED';
  /** Always `StoreWriteError`. */
  override name = 'StoreWriteError';
}

/** A batch on its way to the file (or whose write failed). */
export interface HeldBatch {
  eviction: number;
  orders: readonly Order[];
  activity: readonly ActivityEntry[];
  /** Built on the first lookup: most batches are never asked. */
  byId?: Map<string, Order>;
  /** The activity entries by entity, in time order; built on the first lookup. */
  byEntity?: Map<string, ActivityEntry[]>;
}

/** A held batch's activity entries of one entity, in time order. */
export function activityOf(batch: HeldBatch, entityId: string): readonly ActivityEntry[] {
  batch.byEntity ??= groupByEntity(batch.activity);
  return batch.byEntity.get(entityId) ?? [];
}

export class StoreWriter {
  private readonly worker: Worker;
  private readonly state = new Int32Array(new SharedArrayBuffer(4 * Object.keys(SLOTS).length));
  private readonly errors: MessageChannel = new MessageChannel();
  private readonly inFlight: HeldBatch[] = [];
  private posted: number;
  private crash: Error | undefined;
  private failed: StoreWriteError | undefined;

  /**
   * `sqlite`: the module name or path better-sqlite3 loads from on this thread. Throws
   * StoreUnavailableError when the thread has no file to start from (writer-entry.ts).
   */
  constructor(file: string, eviction: number, sqlite = 'better-sqlite3') {
    const entry = writerEntry();
    this.posted = eviction;
    Atomics.store(this.state, SLOTS.committed, eviction);
    const setup: WriterSetup = {
      file,
      sqlite: createRequire(import.meta.url).resolve(sqlite),
      state: this.state.buffer as SharedArrayBuffer,
      slots: SLOTS,
      errors: this.errors.port2,
    };
    // An ES module from a file (or, from source, a data: URL), started with none of this process's
    // flags, which it does not need: neither its execArgv nor NODE_OPTIONS, which a worker reads from
    // its env (--input-type=module there refuses any file as a thread's entry).
    const { NODE_OPTIONS: _flags, ...env } = process.env;
    this.worker = new Worker(entry, { execArgv: [], env, workerData: setup, transferList: [setup.errors] });
    // Seen only between calls (the event cannot arrive while a wait blocks), and not fatal to the process.
    this.worker.on('error', (err) => {
      this.crash = err;
    });
    // A simulator left open must not keep its process alive; what was not committed then is what
    // a killed process loses (the file resumes at its last checkpoint).
    this.worker.unref();
  }

  /** Waits while MAX_IN_FLIGHT batches are uncommitted; throws StoreWriteError once a write failed. */
  ready(): void {
    this.waitFor(this.posted - MAX_IN_FLIGHT + 1);
    if (this.failed) throw this.failed;
  }

  /**
   * Sends a batch, its `transfer` buffers moved to the thread, and holds what it holds as `held`
   * (call `ready` first). Never throws for the file: the batch is held until committed.
   */
  post(
    batch: Batch,
    transfer: ArrayBuffer[],
    held: { orders: readonly Order[]; activity: readonly ActivityEntry[] },
  ): void {
    this.drop();
    this.inFlight.push({ eviction: batch.eviction, ...held });
    this.posted = batch.eviction;
    if (!this.failed) this.worker.postMessage({ batch } satisfies WriterMessage, transfer);
  }

  /** The batches not (yet) in the file, oldest first. */
  held(): readonly HeldBatch[] {
    this.drop();
    return this.inFlight;
  }

  /** An order of a held batch, by id. */
  pending(orderId: string): Order | undefined {
    const held = this.held();
    for (let i = held.length - 1; i >= 0; i--) {
      const batch = held[i] as HeldBatch;
      batch.byId ??= byId(batch.orders);
      const found = batch.byId.get(orderId);
      if (found) return found;
    }
    return undefined;
  }

  /** Lets go of the held batches (a reset: they belong to the old history). */
  forget(): void {
    this.inFlight.length = 0;
  }

  /** Waits until every batch posted is in the file, or a write failed (those then stay held). */
  flush(): void {
    this.waitFor(this.posted);
    this.drop();
  }

  /**
   * Writes what is posted, closes the file and ends the thread; throws StoreWriteError when a
   * write failed, the last ones included (a close's own checkpoint that fails is lost otherwise).
   */
  close(): void {
    try {
      this.flush();
      if (!this.failed) {
        this.worker.postMessage({ close: true } satisfies WriterMessage);
        this.waitUntil(() => Atomics.load(this.state, SLOTS.closed) === 1);
      }
    } finally {
      void this.worker.terminate();
      this.errors.port1.close();
    }
    if (this.failed) throw this.failed;
  }

  private waitFor(eviction: number): void {
    this.waitUntil(() => Atomics.load(this.state, SLOTS.committed) >= eviction);
  }

  /** Blocks until `done` or a failure; every report of the thread wakes it. */
  private waitUntil(done: () => boolean): void {
    const since = Date.now();
    for (;;) {
      this.check();
      if (this.failed || done()) return;
      // A thread that died before it could report (it reports any failure after it started) would
      // leave this wait forever: the events that would say so cannot arrive while it waits.
      if (Atomics.load(this.state, SLOTS.started) === 0 && Date.now() - since > START_TIMEOUT_MS)
        this.fail('the writer thread did not start');
      Atomics.wait(this.state, SLOTS.committed, Atomics.load(this.state, SLOTS.committed), 1000);
    }
  }

  /** Notes the writer's failure, once it reported one. */
  private check(): void {
    if (this.failed) return;
    if (this.crash) this.fail(this.crash.message);
    else if (Atomics.load(this.state, SLOTS.failed) !== 0) {
      const text = receiveMessageOnPort(this.errors.port1)?.message as string | undefined;
      this.fail(text ?? 'the writer thread failed');
    }
  }

  private fail(reason: string): void {
    this.failed = new StoreWriteError(`store could not write its file: ${reason}`);
  }

  /** Forgets the batches the file now holds. */
  private drop(): void {
    const committed = Atomics.load(this.state, SLOTS.committed);
    while (this.inFlight.length > 0 && (this.inFlight[0] as HeldBatch).eviction <= committed)
      this.inFlight.shift();
  }
}

/** Orders by id (a loop: no [id, order] pair for each of an eviction's 20,000 orders). */
function byId(orders: readonly Order[]): Map<string, Order> {
  const map = new Map<string, Order>();
  for (const o of orders) map.set(o.orderId, o);
  return map;
}
