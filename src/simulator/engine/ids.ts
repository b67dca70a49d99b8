/**
 * The roll child's orderId is derived from its parent so that a replayed or re-run simulation
 * produces the same chain: a 128-bit FNV-1a-style hash of `<parentId>:roll`, shaped as UUID v4.
 * Pure JS (no node:crypto) so the engine also runs where msw runs.
 */
export function rollChildOrderId(parentOrderId: string): string {
  return uuidV4Shape(hash128(`${parentOrderId}:roll`));
}

function hash128(input: string): number[] {
  const seeds = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b];
  return seeds.map((seed, lane) => {
    let h = (seed ^ (lane * 0x27d4eb2d)) >>> 0;
    for (let i = 0; i < input.length; i++) {
      h ^= input.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
      h ^= h >>> 13;
    }
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    return (h ^ (h >>> 16)) >>> 0;
  });
}

function uuidV4Shape(words: number[]): string {
  const hex = words.map((w) => w.toString(16).padStart(8, '0')).join('');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
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
