/**
 * The file's way from an order id to its chunk: for each eviction, its ids' 32-bit hashes in
 * BUCKETS rows (`id_buckets` in order-store.ts), each a sorted run of (hash, chunk) pairs, the
 * chunk as an offset from the eviction's first chunk. A lookup reads one row per eviction the id
 * filter names and searches it; a hash two ids share names both chunks, and the caller finds the
 * id in what it reads, so the answer stays exact.
 *
 * Why not a row per id: an eviction of a simulated day holds about 20,000 orders, and a row per id
 * was two thirds of the writer thread's time (55 of 80 ms an eviction, against 2 for 64 rows).
 *
 * The writer thread's built file (dist/simulator/store-writer.js, tsup.config.ts) carries this
 * module, so it imports Node's modules and types only: the thread loads nothing it does not run.
 */
import { hashes } from './id-filter.js';

/** Rows per eviction: a lookup reads about 1/64 of an eviction's pairs (2.5 kB of 20,000 ids). */
export const BUCKETS = 64;

/** The bucket of an id's hash (`hashes(id)[1]`). */
const bucketOf = (hash: number): number => hash >>> 26;

/** The id's hash and bucket. */
export function idKey(id: string): { hash: number; bucket: number } {
  const hash = hashes(id)[1];
  return { hash, bucket: bucketOf(hash) };
}

/**
 * An eviction's bucket rows: the id of hash `idHashes[i]` (its `hashes(id)[1]`) is in the chunk
 * at offset `chunks[i]`. Each row's entries are [hash, offset] pairs in hash order, as a
 * Uint32Array's bytes.
 */
export function bucketRows(idHashes: readonly number[], chunks: readonly number[]): [number, Uint8Array][] {
  // hash * 2^21 + offset sorts by hash and stays an exact double (offsets < 2^21 chunks).
  const keys: number[][] = Array.from({ length: BUCKETS }, () => []);
  for (let i = 0; i < idHashes.length; i++) {
    if ((chunks[i] as number) >= 2 ** 21) throw new RangeError('an eviction of more than 2^21 chunks');
    const hash = idHashes[i] as number;
    (keys[bucketOf(hash)] as number[]).push(hash * 2 ** 21 + (chunks[i] as number));
  }
  const rows: [number, Uint8Array][] = [];
  for (let b = 0; b < BUCKETS; b++) {
    const sorted = Float64Array.from(keys[b] as number[]).sort();
    if (sorted.length === 0) continue;
    const pairs = new Uint32Array(sorted.length * 2);
    for (let i = 0; i < sorted.length; i++) {
      const k = sorted[i] as number;
      pairs[2 * i] = Math.floor(k / 2 ** 21);
      pairs[2 * i + 1] = k % 2 ** 21;
    }
    rows.push([b, new Uint8Array(pairs.buffer)]);
  }
  return rows;
}

/** The chunk offsets a bucket row names for `hash` (more than one when ids share it). */
export function offsetsOf(row: Uint8Array, hash: number): number[] {
  // Copied: a blob's bytes need not be aligned for a Uint32Array.
  const pairs = new Uint32Array(row.byteLength / 4);
  new Uint8Array(pairs.buffer).set(row);
  let lo = 0;
  let hi = pairs.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((pairs[2 * mid] as number) < hash) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let i = lo; i < pairs.length / 2 && pairs[2 * i] === hash; i++) out.push(pairs[2 * i + 1] as number);
  return out;
}
