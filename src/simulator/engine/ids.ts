/**
 * The roll child's orderId is derived from its parent so that a replayed or re-run simulation
 * produces the same chain: a 128-bit FNV-1a-style hash of `<parentId>:roll`, shaped as UUID v4.
 * Pure JS (no node:crypto) so the engine also runs where msw runs.
 */
export function rollChildOrderId(parentOrderId: string): string {
  return uuidV4Shape(hash128(`${parentOrderId}:roll`));
}

// The four lanes of the hash: seed ^ (lane * 0x27d4eb2d), unsigned.
const LANE_SEEDS = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b].map(
  (seed, lane) => (seed ^ Math.imul(lane, 0x27d4eb2d)) >>> 0,
);

/**
 * Four FNV-1a-style lanes over the input's UTF-16 code units, each finished by a murmur3-style
 * avalanche. The lanes run side by side in one pass, with no array or closure per call: every
 * unsettled roll remainder derives one id, so this runs once per order at a large settlement.
 */
function hash128(input: string): [number, number, number, number] {
  let a = LANE_SEEDS[0] as number;
  let b = LANE_SEEDS[1] as number;
  let c = LANE_SEEDS[2] as number;
  let d = LANE_SEEDS[3] as number;
  for (let i = 0; i < input.length; i++) {
    const code = input.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    a ^= a >>> 13;
    b = Math.imul(b ^ code, 0x01000193) >>> 0;
    b ^= b >>> 13;
    c = Math.imul(c ^ code, 0x01000193) >>> 0;
    c ^= c >>> 13;
    d = Math.imul(d ^ code, 0x01000193) >>> 0;
    d ^= d >>> 13;
  }
  return [finish(a), finish(b), finish(c), finish(d)];
}

function finish(h: number): number {
  let x = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** 8 hex digits of a 32-bit word, high byte first. */
function hex8(w: number): string {
  return (
    (HEX[w >>> 24] as string) +
    (HEX[(w >>> 16) & 0xff] as string) +
    (HEX[(w >>> 8) & 0xff] as string) +
    (HEX[w & 0xff] as string)
  );
}

/**
 * The 32 hex digits as xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: digit 12 becomes the version 4 and
 * digit 16 the variant (its two high bits 10).
 */
function uuidV4Shape([w0, w1, w2, w3]: [number, number, number, number]): string {
  const h1 = hex8(w1);
  const h2 = hex8(w2);
  const variant = (((w2 >>> 28) & 0x3) | 0x8).toString(16);
  return `${hex8(w0)}-${h1.slice(0, 4)}-4${h1.slice(5, 8)}-${variant}${h2.slice(1, 4)}-${h2.slice(4)}${hex8(w3)}`;
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
