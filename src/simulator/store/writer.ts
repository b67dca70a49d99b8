/**
 * The simulator's side of the store's writer thread (writer-thread.ts): each eviction's batch is
 * posted and the simulator goes on trading while the thread inserts it. Until its commit is
 * reported, the batch's orders stay readable here, so a getOrder or a reused key never misses
 * one; a listing and an activity sum, which count, wait for the file instead (`flush`).
 */
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { Order } from '../engine/types.js';
import { type Batch, SLOTS, type WriterMessage, type WriterSetup } from './writer-protocol.js';
import { WRITER_THREAD_SOURCE } from './writer-thread.generated.js';

/** Batches posted and not yet committed before an eviction waits: bounds the memory they hold. */
const MAX_IN_FLIGHT = 2;
/** How long a wait allows the thread to open the file. */
const START_TIMEOUT_MS = 30_000;

/** The store could not write to its file (the message says why); the simulator's memory still holds what was not written. */
export class StoreWriteError extends Error {
  /** Always `StoreWriteError`. */
  override name = 'StoreWriteError';
}

interface InFlight {
  eviction: number;
  orders: readonly Order[];
  /** Built on the first lookup: most batches are never asked. */
  byId?: Map<string, Order>;
}

export class StoreWriter {
  private readonly worker: Worker;
  private readonly state = new Int32Array(new SharedArrayBuffer(4 * Object.keys(SLOTS).length));
  private readonly errors: MessageChannel = new MessageChannel();
  private readonly inFlight: InFlight[] = [];
  private posted: number;
  private failure: StoreWriteError | undefined;

  /** `sqlite`: the module name or path better-sqlite3 loads from on this thread. */
  constructor(file: string, eviction: number, sqlite = 'better-sqlite3') {
    this.posted = eviction;
    Atomics.store(this.state, SLOTS.committed, eviction);
    const setup: WriterSetup = {
      file,
      sqlite: createRequire(import.meta.url).resolve(sqlite),
      state: this.state.buffer as SharedArrayBuffer,
      slots: SLOTS,
      errors: this.errors.port2,
    };
    this.worker = new Worker(WRITER_THREAD_SOURCE, {
      eval: true,
      // None of this process's flags: --input-type=module (node -e) would make the script an ES
      // module, which it is not; tsx's loader has nothing to load in it.
      execArgv: [],
      workerData: setup,
      transferList: [this.errors.port2],
    });
    // A simulator left open must not keep its process alive; what was not committed then is what
    // a killed process loses (the file resumes at its last checkpoint).
    this.worker.unref();
  }

  /** Sends a batch; waits first while MAX_IN_FLIGHT are uncommitted. Throws StoreWriteError once a write failed. */
  post(batch: Batch, orders: readonly Order[]): void {
    this.waitFor(this.posted - MAX_IN_FLIGHT + 1);
    this.drop();
    this.worker.postMessage({ batch } satisfies WriterMessage);
    this.posted = batch.eviction;
    this.inFlight.push({ eviction: batch.eviction, orders });
  }

  /** How many batches this side still holds (at most MAX_IN_FLIGHT: the committed are let go). */
  get held(): number {
    return this.inFlight.length;
  }

  /** An order posted and not yet committed, by id. */
  pending(orderId: string): Order | undefined {
    this.drop();
    for (let i = this.inFlight.length - 1; i >= 0; i--) {
      const batch = this.inFlight[i] as InFlight;
      batch.byId ??= new Map(batch.orders.map((o) => [o.orderId, o]));
      const found = batch.byId.get(orderId);
      if (found) return found;
    }
    return undefined;
  }

  /** Waits until every batch posted is in the file. */
  flush(): void {
    this.waitFor(this.posted);
    this.drop();
  }

  /** Writes what is posted, closes the file and ends the thread. */
  close(): void {
    try {
      this.flush();
      this.worker.postMessage({ close: true } satisfies WriterMessage);
      while (Atomics.load(this.state, SLOTS.closed) === 0) {
        this.check();
        Atomics.wait(this.state, SLOTS.committed, Atomics.load(this.state, SLOTS.committed), 1000);
      }
    } finally {
      void this.worker.terminate();
      this.errors.port1.close();
    }
  }

  private waitFor(eviction: number): void {
    const since = Date.now();
    for (;;) {
      this.check();
      // A thread that died before it could report (it reports any failure after it started) would
      // leave this wait forever: the events that would say so cannot arrive while it waits.
      if (Atomics.load(this.state, SLOTS.started) === 0 && Date.now() - since > START_TIMEOUT_MS)
        this.fail('the writer thread did not start');
      const committed = Atomics.load(this.state, SLOTS.committed);
      if (committed >= eviction) return;
      // Wakes at each commit (the thread notifies); the timeout only re-checks for a failure.
      Atomics.wait(this.state, SLOTS.committed, committed, 1000);
    }
  }

  /** Throws the writer's failure, once it reported one. */
  private check(): void {
    if (this.failure) throw this.failure;
    if (Atomics.load(this.state, SLOTS.failed) === 0) return;
    const text = receiveMessageOnPort(this.errors.port1)?.message as string | undefined;
    this.fail(text ?? 'the writer thread failed');
  }

  private fail(reason: string): never {
    this.failure = new StoreWriteError(`store could not write its file: ${reason}`);
    throw this.failure;
  }

  /** Forgets the batches the file now holds. */
  private drop(): void {
    const committed = Atomics.load(this.state, SLOTS.committed);
    while (this.inFlight.length > 0 && (this.inFlight[0] as InFlight).eviction <= committed)
      this.inFlight.shift();
  }
}
