/**
 * Which order ids the store may hold, and in which evictions: a Bloom filter in segments, each
 * over a run of evictions, so that a caller's placement (checked against the store's ids for a
 * reused key; the market's own skip it, kept-ids.ts) and a lookup of an id the file never saw skip
 * the file, and a "maybe" names the evictions to look in (the file's id buckets are keyed by
 * eviction first, so that they are written in order: id-buckets.ts). A "no" is exact (every stored id was
 * added), so no answer changes, only how fast a miss comes. The segments are saved with each
 * checkpoint, so a file opens without reading back every id (a stored day, 29 million: 45 s).
 *
 * Not blocked (all of an id's bits in one cache line): measured with these ids at 20 bits an id, a
 * full blocked segment answered "maybe" to 0.13% of others against 0.007%, and a maybe costs reads.
 *
 * Hand-written because the filter must grow with an unbounded history, name the evictions of its
 * segments and be saved and loaded as bytes: the maintained packages (bloom-filters and the like)
 * size one filter up front and bring a hashing dependency tree for two 32-bit string hashes.
 */

/**
 * Bits of a segment (4 MiB). Each checkpoint saves the last segment whole (the bits of an id land
 * all over it), so a larger one costs every checkpoint: segments that doubled up to 16 MiB made a
 * stored day's checkpoints half as slow again in its later hours, and the simulator's thread waited
 * on them. Asking many segments costs little: market placements and rolls do not ask the filter
 * (kept-ids.ts), only lookups by callers, and a "no" costs about two cache misses a segment.
 */
const SEGMENT_BITS = 2 ** 25;
// 24 bits an id: a "maybe" costs a read of the id buckets of every eviction of its segment
// (order-store.ts), up to hundreds in a large one, so false ones must be rare: a full segment
// answers "maybe" to about 0.001% of other ids.
const BITS_PER_ID = 24;
/** Probes per id: about ln 2 x 24. */
const PROBES = 17;
/**
 * Evictions a segment spans at most: a lookup seeks once per eviction of each segment that says
 * "maybe", so a quiet market (a few orders an eviction) must not fill one segment over thousands of
 * them (a lookup of an old order took a seek for every eviction since). A busy one fills a segment
 * in about 50.
 */
const MAX_SPAN = 1024;

/** The evictions a segment's ids were written in (inclusive). */
export interface EvictionRange {
  first: number;
  last: number;
}

/** A segment as the file keeps it (`id_filter` in order-store.ts). */
export interface SavedSegment extends EvictionRange {
  index: number;
  ids: number;
  bits: Uint8Array;
}

interface Segment extends EvictionRange {
  /** A power of two of words. */
  bits: Uint32Array;
  ids: number;
}

/** The ids a segment of `words` takes. */
const capacity = (bits: Uint32Array) => (bits.length * 32) / BITS_PER_ID;

/** A segment's bits, shared with the store's writer thread, which sets an eviction's (addBits). */
const sharedWords = (words: number) => new Uint32Array(new SharedArrayBuffer(words * 4));

export class IdFilter {
  private readonly segments: Segment[] = [];
  /** The first segment changed since the last `changed()`. */
  private dirtyFrom = 0;

  /** A filter of saved segments (in index order). */
  static load(saved: Iterable<SavedSegment>): IdFilter {
    const f = new IdFilter();
    for (const s of saved) {
      const bits = sharedWords(s.bits.byteLength / 4);
      new Uint8Array(bits.buffer).set(s.bits);
      f.segments.push({ bits, ids: s.ids, first: s.first, last: s.last });
    }
    f.dirtyFrom = Math.max(0, f.segments.length - 1);
    return f;
  }

  /**
   * The segment that takes `count` ids written in `eviction` (numbers never decrease), counted in
   * it; the caller sets their bits (addBits). A segment holds whole evictions: a full one (or one
   * spanning MAX_SPAN) takes no new eviction, but the rest of its last one.
   */
  reserve(eviction: number, count: number): Uint32Array {
    let seg = this.segments.at(-1);
    if (
      !seg ||
      (eviction > seg.last && (seg.ids >= capacity(seg.bits) || eviction - seg.first >= MAX_SPAN))
    ) {
      seg = { bits: sharedWords(SEGMENT_BITS / 32), ids: 0, first: eviction, last: eviction };
      this.segments.push(seg);
    }
    seg.ids += count;
    seg.last = eviction;
    return seg.bits;
  }

  /** Adds an id written in `eviction` (reserve and addBits in one). */
  add(id: string, eviction: number): void {
    const [h1, h2] = hashes(id);
    addBits(this.reserve(eviction, 1), h1, h2);
  }

  /** The evictions `id` may have been written in, newest first; none when it never was added. */
  evictionsOf(id: string): EvictionRange[] {
    const out: EvictionRange[] = [];
    if (this.segments.length === 0) return out;
    const [h1, h2] = hashes(id);
    for (let s = this.segments.length - 1; s >= 0; s--) {
      const seg = this.segments[s] as Segment;
      if (inSegment(seg.bits, h1, h2)) out.push({ first: seg.first, last: seg.last });
    }
    return out;
  }

  /** False only when `id` was never added. */
  mightHave(id: string): boolean {
    return this.evictionsOf(id).length > 0;
  }

  /**
   * The segments changed since the last call (the last one may still fill: it is in the next too),
   * their bits as views of the shared memory: whoever saves them copies them once the bits of
   * every eviction they count are set (the writer thread, in the checkpoint's transaction).
   */
  changed(): SavedSegment[] {
    const out: SavedSegment[] = [];
    for (let index = this.dirtyFrom; index < this.segments.length; index++) {
      const { bits, ids, first, last } = this.segments[index] as Segment;
      out.push({ index, ids, first, last, bits: new Uint8Array(bits.buffer) });
    }
    this.dirtyFrom = Math.max(0, this.segments.length - 1);
    return out;
  }
}

/** Sets the bits of an id, by its `hashes`, in a segment (IdFilter.reserve's). */
export function addBits(bits: Uint32Array, h1: number, h2: number): void {
  const mask = bits.length - 1;
  for (let i = 0; i < PROBES; i++) {
    const bit = (h1 + Math.imul(i, h2)) >>> 0;
    const word = (bit >>> 5) & mask;
    bits[word] = (bits[word] as number) | (1 << (bit & 31));
  }
}

function inSegment(bits: Uint32Array, h1: number, h2: number): boolean {
  const mask = bits.length - 1;
  for (let i = 0; i < PROBES; i++) {
    const bit = (h1 + Math.imul(i, h2)) >>> 0;
    if (((bits[(bit >>> 5) & mask] as number) & (1 << (bit & 31))) === 0) return false;
  }
  return true;
}

// Two independent 32-bit hashes (FNV-1a and a murmur3-style mix of the same code units), combined
// by double hashing (Kirsch and Mitzenmacher): seventeen probes for the price of two hashes. The
// second also keys the file's id buckets (id-buckets.ts). The pair is reused: read it at once.
const hashPair: [number, number] = [0, 0];
const A = 0x811c9dc5;
const B = 0x9747b28c;
export function hashes(id: string): [number, number] {
  let a = A;
  let b = B;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return finish(a, b);
}

/**
 * `hashes` of an id held as UTF-8 bytes [start, end), when they are ASCII (its code units are then
 * its bytes); undefined when one is not. The writer thread hashes the ids of its chunks from their
 * bytes: making 29 million strings a day only to hash them was a tenth of its time.
 */
export function asciiHashes(bytes: Uint8Array, start: number, end: number): [number, number] | undefined {
  let a = A;
  let b = B;
  for (let i = start; i < end; i++) {
    const c = bytes[i] as number;
    if (c > 0x7f) return undefined;
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return finish(a, b);
}

function finish(a: number, b: number): [number, number] {
  b ^= b >>> 13;
  b = Math.imul(b, 0xc2b2ae35);
  b ^= b >>> 16;
  hashPair[0] = a >>> 0;
  // An odd step visits distinct bits for every probe.
  hashPair[1] = (b | 1) >>> 0;
  return hashPair;
}
