import { performance } from 'node:perf_hooks';

// Shared by the clearing bench (clearing.ts) and the engine path bench (engine-path.ts).

/** The reference fee of the benches' books, in hundredths of a basis point (3.00 bps). */
export const REFERENCE_FEE = 300;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function timeMs(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}
