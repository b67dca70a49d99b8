/**
 * Clearing benchmark: `npx tsx bench/clearing.ts [sizes...]`.
 *
 * Clears random books of 1k..1M resting orders and reports the median time per size, the time per
 * order, the growth per 10x (n log n predicts a little over 10x) and, as a machine-independent
 * yardstick, the ratio to sorting the same number of random Float64s natively in the same process.
 *
 * Then the whole engine path (bench/engine-path.ts; `--engine-sizes 10000,100000,1000000`, and
 * `--engine-only` to skip the rows above).
 */
import { pathToFileURL } from 'node:url';
import { type ClearingOrder, clearOrders } from '../src/simulator/engine/clearing.js';
import { seededRandom as prng } from '../src/simulator/engine/ids.js';
import { median, REFERENCE_FEE, timeMs } from './clearing-support.js';
import { benchEnginePath, ENGINE_SIZES, formatEngineTable } from './engine-path.js';

export interface ClearingBenchRow {
  name: string;
  size: number;
  runs: number;
  medianMs: number;
  msPerOrder: number;
  /** median(size) / median(previous size), when the previous size is a tenth of this one. */
  growthPer10x: number | null;
  /** What n log n predicts for that growth: 10 * log(n) / log(n / 10). */
  nLogNGrowth: number | null;
  /** Median time to sort `size` random Float64s (Float64Array.prototype.sort) in this process. */
  baselineSortMs: number;
  /** medianMs / baselineSortMs. */
  vsBaseline: number;
}

const DEFAULT_SIZES = [1_000, 10_000, 100_000, 1_000_000];

/**
 * A book like a busy auction: half BURN, half MINT, 5% market orders, limits on the 0.01 bps grid
 * between 0 and 20 bps (so about 2,000 distinct levels and many equal limits), amounts of $1 to
 * $10,000 in whole dollars.
 */
export function randomBook(size: number, seed = 1): ClearingOrder[] {
  const random = prng(seed);
  const orders: ClearingOrder[] = new Array(size);
  for (let i = 0; i < size; i++) {
    orders[i] = {
      side: random() < 0.5 ? 'BURN' : 'MINT',
      amountCents: (1 + Math.floor(random() * 10_000)) * 100,
      limitCentiBps: random() < 0.05 ? null : Math.floor(random() * 2_001),
      createdAt: 1_700_000_000_000 + i,
      orderId: `order-${i}`,
    };
  }
  return orders;
}

function runsFor(size: number): number {
  if (size <= 1_000) return 51;
  if (size <= 10_000) return 21;
  if (size <= 100_000) return 9;
  return 5;
}

function baselineSortMs(size: number, runs: number): number {
  const random = prng(7);
  const source = new Float64Array(size);
  for (let i = 0; i < size; i++) source[i] = random();
  const times: number[] = [];
  for (let r = 0; r < runs + 1; r++) {
    const copy = source.slice();
    const t = timeMs(() => copy.sort());
    if (r > 0) times.push(t);
  }
  return median(times);
}

export async function benchClearing(sizes: number[] = DEFAULT_SIZES): Promise<ClearingBenchRow[]> {
  // Warm-up: let the JIT optimise the hot loops before anything is timed.
  const warm = randomBook(20_000, 99);
  for (let r = 0; r < 20; r++) clearOrders(warm, { referenceFeeCentiBps: REFERENCE_FEE });

  const rows: ClearingBenchRow[] = [];
  let sink = 0;
  for (const size of sizes) {
    const book = randomBook(size, size);
    const runs = runsFor(size);
    sink += clearOrders(book, { referenceFeeCentiBps: REFERENCE_FEE }).matchedCents;
    const times: number[] = [];
    for (let r = 0; r < runs; r++) {
      times.push(
        timeMs(() => {
          sink += clearOrders(book, { referenceFeeCentiBps: REFERENCE_FEE }).matchedCents;
        }),
      );
    }
    const medianMs = median(times);
    const previous = rows.at(-1);
    const tenfold = previous !== undefined && previous.size * 10 === size;
    const baseline = baselineSortMs(size, runs);
    rows.push({
      name: 'clearOrders',
      size,
      runs,
      medianMs,
      msPerOrder: medianMs / size,
      growthPer10x: tenfold ? medianMs / previous.medianMs : null,
      nLogNGrowth: tenfold ? (10 * Math.log(size)) / Math.log(size / 10) : null,
      baselineSortMs: baseline,
      vsBaseline: medianMs / baseline,
    });
    await new Promise((resolve) => setImmediate(resolve));
  }
  // The sum keeps the engine from discarding the work; it is never printed.
  if (Number.isNaN(sink)) throw new Error('unreachable');
  return rows;
}

/**
 * The pro-rata worst case: every order on one price level with the same amount, so every remainder
 * ties and the time/id ranking sorts the whole level. Median of `runs` clears.
 */
export async function benchClearingWorstCase(size = 1_000_000, runs = 3): Promise<ClearingBenchRow> {
  const book: ClearingOrder[] = new Array(size);
  for (let i = 0; i < size; i++) {
    book[i] = {
      side: i % 3 === 0 ? 'MINT' : 'BURN',
      amountCents: 70_000,
      limitCentiBps: 500,
      createdAt: 1_700_000_000_000 + (i % 1_000),
      orderId: `order-${i}`,
    };
  }
  clearOrders(book, { referenceFeeCentiBps: REFERENCE_FEE });
  const times: number[] = [];
  for (let r = 0; r < runs; r++)
    times.push(timeMs(() => clearOrders(book, { referenceFeeCentiBps: REFERENCE_FEE })));
  const medianMs = median(times);
  const baseline = baselineSortMs(size, runs);
  return {
    name: 'clearOrders, one level, equal amounts',
    size,
    runs,
    medianMs,
    msPerOrder: medianMs / size,
    growthPer10x: null,
    nLogNGrowth: null,
    baselineSortMs: baseline,
    vsBaseline: medianMs / baseline,
  };
}

function formatTable(rows: ClearingBenchRow[]): string {
  const header =
    '| orders | runs | median ms | µs per order | growth per 10x | n log n predicts | sort baseline ms | clear / sort |';
  const rule = '|---:|---:|---:|---:|---:|---:|---:|---:|';
  const lines = rows.map((r) =>
    [
      '',
      r.size.toLocaleString('en-US'),
      r.runs,
      r.medianMs.toFixed(2),
      (r.msPerOrder * 1000).toFixed(3),
      r.growthPer10x === null ? '—' : `${r.growthPer10x.toFixed(1)}x`,
      r.nLogNGrowth === null ? '—' : `${r.nLogNGrowth.toFixed(1)}x`,
      r.baselineSortMs.toFixed(2),
      `${r.vsBaseline.toFixed(1)}x`,
      '',
    ]
      .join(' | ')
      .trim(),
  );
  return [header, rule, ...lines].join('\n');
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const args = process.argv.slice(2);
  const engineAt = args.indexOf('--engine-sizes');
  const engineSizes =
    engineAt >= 0
      ? (args[engineAt + 1] ?? '')
          .split(',')
          .map(Number)
          .filter((n) => n > 0)
      : ENGINE_SIZES;
  const sizes = args
    .filter((_, i) => engineAt < 0 || (i !== engineAt && i !== engineAt + 1))
    .map(Number)
    .filter((s) => Number.isSafeInteger(s) && s > 0);
  console.log(`node ${process.version}, ${new Date().toISOString()}`);
  // --engine-only: the engine path rows alone (each child also times the bare algorithm on its book).
  if (!args.includes('--engine-only')) {
    console.log(formatTable(await benchClearing(sizes.length > 0 ? sizes : DEFAULT_SIZES)));
    const worst = await benchClearingWorstCase();
    console.log(
      `\nworst case for pro rata (${worst.size.toLocaleString('en-US')} orders on one level, equal amounts): ` +
        `median ${worst.medianMs.toFixed(0)} ms, ${worst.vsBaseline.toFixed(1)}x the sort baseline`,
    );
  }
  console.log('\nengine path (placed through the engine; lock, clear, settle with events and balances):');
  console.log(formatEngineTable(await benchEnginePath(engineSizes)));
}
