/**
 * Which order ids the store may hold: a Bloom filter, so that a placement (every order a
 * background participant places is checked against the store's ids for a reused key) and a
 * lookup of an id the file never saw skip the SQLite index. A "maybe" is asked of the file; a
 * "no" is exact (every stored id was added), so no answer changes, only how fast a miss comes.
 * Measured on the day bench (300 auctions of `busy`): the index lookups were 2.8 s of 23 s, and
 * they grow with the file as its index outgrows the page cache.
 *
 * Hand-written because the filter must grow with an unbounded history and be rebuilt from the
 * file on open: the maintained packages (bloom-filters and the like) size one filter up front and
 * bring a hashing dependency tree for what is two 32-bit string hashes here.
 */

/** Bits per segment (4 MiB); each holds SEGMENT_IDS ids at about 1% false positives. */
const SEGMENT_BITS = 2 ** 25;
const SEGMENT_IDS = SEGMENT_BITS / 10;
/** Probes per id: the optimum for 10 bits an id is ln 2 x 10, about 7. */
const PROBES = 7;
const WORD_MASK = SEGMENT_BITS / 32 - 1;

export class IdFilter {
  private readonly segments: Uint32Array[] = [];
  private inLast = 0;

  /** Adds an id (the segment in use fills, then a new one starts). */
  add(id: string): void {
    let bits = this.segments.at(-1);
    if (!bits || this.inLast >= SEGMENT_IDS) {
      bits = new Uint32Array(SEGMENT_BITS / 32);
      this.segments.push(bits);
      this.inLast = 0;
    }
    this.inLast++;
    const [h1, h2] = hashes(id);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + Math.imul(i, h2)) >>> 0;
      const word = (bit >>> 5) & WORD_MASK;
      bits[word] = (bits[word] as number) | (1 << (bit & 31));
    }
  }

  /** False only when `id` was never added. */
  mightHave(id: string): boolean {
    if (this.segments.length === 0) return false;
    const [h1, h2] = hashes(id);
    for (const bits of this.segments) if (inSegment(bits, h1, h2)) return true;
    return false;
  }
}

function inSegment(bits: Uint32Array, h1: number, h2: number): boolean {
  for (let i = 0; i < PROBES; i++) {
    const bit = (h1 + Math.imul(i, h2)) >>> 0;
    if (((bits[(bit >>> 5) & WORD_MASK] as number) & (1 << (bit & 31))) === 0) return false;
  }
  return true;
}

// Two independent 32-bit hashes (FNV-1a and a murmur3-style mix of the same code units), combined
// by double hashing (Kirsch and Mitzenmacher): seven probes for the price of two hashes.
const hashPair: [number, number] = [0, 0];
function hashes(id: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  b ^= b >>> 13;
  b = Math.imul(b, 0xc2b2ae35);
  b ^= b >>> 16;
  hashPair[0] = a >>> 0;
  // An odd step visits distinct bits for every probe.
  hashPair[1] = (b | 1) >>> 0;
  return hashPair;
}
