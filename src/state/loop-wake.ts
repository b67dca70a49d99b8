// What wakes the mirror's loop from waiting on its next event: a summary read asked for (after a
// reconnect, or for held changes: settlement-hold.ts), or close. Reads asked for while one runs are
// owed another: the loop reads again until every ask is answered.

export const WAKE = Symbol('wake');

function signal(): { promise: Promise<typeof WAKE>; resolve: (value: typeof WAKE) => void } {
  let resolve!: (value: typeof WAKE) => void;
  const promise = new Promise<typeof WAKE>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export class LoopWake {
  #signal = signal();
  #asked = 0;
  #done = 0;

  /** Resolves with WAKE once woken; race it with the next event. */
  get woken(): Promise<typeof WAKE> {
    return this.#signal.promise;
  }

  /** The reads asked for so far: a read that starts now answers all of them. */
  get asked(): number {
    return this.#asked;
  }

  /** Asks the loop for a summary read. */
  askRead(): void {
    this.#asked += 1;
    this.#signal.resolve(WAKE);
  }

  /** Wakes the loop without asking for anything (close). */
  wake(): void {
    this.#signal.resolve(WAKE);
  }

  /** The loop woke: arms the next wake, and says whether a read is owed. */
  rearm(): boolean {
    this.#signal = signal();
    return this.#asked > this.#done;
  }

  /** A read that started when `asked` reads were asked for has answered them. */
  answered(asked: number): void {
    this.#done = Math.max(this.#done, asked);
  }
}
