/**
 * The market's seeded generator: mulberry32 (as engine/ids.ts) with its one word of state readable
 * and settable, so that a snapshot can carry it and a restored run draws the same numbers.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included (integers in, integer out: no float reaches money). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** The generator's state word. */
  get word(): number {
    return this.state;
  }

  set word(value: number) {
    this.state = value >>> 0;
  }
}
