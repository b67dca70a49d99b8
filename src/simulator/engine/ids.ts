/**
 * The roll child's orderId is derived from its parent so that a replayed or re-run simulation
 * produces the same chain: a 128-bit FNV-1a-style hash of `<parentId>:roll`, shaped as UUID v4.
 * Pure JS (no node:crypto) so the engine also runs where msw runs.
 */
export function rollChildOrderId(parentOrderId: string): string {
  // Four FNV-1a-style lanes over the UTF-16 code units of `<parentId>:roll`, side by side in one
  // pass, each finished by a murmur3-style avalanche. No string, array or closure is made on the
  // way: every unsettled roll remainder derives one id, so this runs once per order at a large
  // settlement.
  let a = LANE_SEEDS[0] as number;
  let b = LANE_SEEDS[1] as number;
  let c = LANE_SEEDS[2] as number;
  let d = LANE_SEEDS[3] as number;
  const n = parentOrderId.length + ROLL_SUFFIX.length;
  for (let i = 0; i < n; i++) {
    const code =
      i < parentOrderId.length
        ? parentOrderId.charCodeAt(i)
        : ROLL_SUFFIX.charCodeAt(i - parentOrderId.length);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    a ^= a >>> 13;
    b = Math.imul(b ^ code, 0x01000193) >>> 0;
    b ^= b >>> 13;
    c = Math.imul(c ^ code, 0x01000193) >>> 0;
    c ^= c >>> 13;
    d = Math.imul(d ^ code, 0x01000193) >>> 0;
    d ^= d >>> 13;
  }
  return uuidV4Shape(finish(a), finish(b), finish(c), finish(d));
}

const ROLL_SUFFIX = ':roll';

// The four lanes of the hash: seed ^ (lane * 0x27d4eb2d), unsigned.
const LANE_SEEDS = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b].map(
  (seed, lane) => (seed ^ Math.imul(lane, 0x27d4eb2d)) >>> 0,
);

function finish(h: number): number {
  let x = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const HEX_CODES = Array.from('0123456789abcdef', (ch) => ch.charCodeAt(0));
const DASH = 0x2d;
const FOUR = 0x34;

/** The hex digit of the 4 bits of `w` at `shift`, as a char code. */
function hex(w: number, shift: number): number {
  return HEX_CODES[(w >>> shift) & 0xf] as number;
}

/**
 * The 32 hex digits of w0..w3 (high nibble first) as xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: digit
 * 12 becomes the version 4 and digit 16 the variant (its two high bits 10). One string, built
 * from char codes.
 */
function uuidV4Shape(w0: number, w1: number, w2: number, w3: number): string {
  return String.fromCharCode(
    hex(w0, 28),
    hex(w0, 24),
    hex(w0, 20),
    hex(w0, 16),
    hex(w0, 12),
    hex(w0, 8),
    hex(w0, 4),
    hex(w0, 0),
    DASH,
    hex(w1, 28),
    hex(w1, 24),
    hex(w1, 20),
    hex(w1, 16),
    DASH,
    FOUR,
    hex(w1, 8),
    hex(w1, 4),
    hex(w1, 0),
    DASH,
    HEX_CODES[((w2 >>> 28) & 0x3) | 0x8] as number,
    hex(w2, 24),
    hex(w2, 20),
    hex(w2, 16),
    DASH,
    hex(w2, 12),
    hex(w2, 8),
    hex(w2, 4),
    hex(w2, 0),
    hex(w3, 28),
    hex(w3, 24),
    hex(w3, 20),
    hex(w3, 16),
    hex(w3, 12),
    hex(w3, 8),
    hex(w3, 4),
    hex(w3, 0),
  );
}

/** mulberry32: a small seeded generator for fault rates and request ids (deterministic per --seed). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * mulberry32 as above, with its one word of state readable and settable, so that a snapshot can
 * carry it and a restored run draws the same numbers.
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
