/**
 * A simulated day under a background market: `npx tsx bench/day.ts [--auctions 8640] [--store FILE]`.
 *
 * 1,000 background participants (the `busy` preset with 996 noise traders and its 4 liquidity
 * providers) on the manual clock; the clock is advanced one 10 s auction at a time as fast as it
 * goes. Reports wall time, orders placed per wall second, peak RSS (the process's maxRSS, which
 * counts the SQLite page cache too) and, with `--store`, the store file's size. The targets (issue
 * 20): a day (8,640 auctions) in < 120 s and < 1 GB. Run it in its own process: peak RSS is the
 * process's, so two runs in one process would measure the larger of them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createSimulator } from '../src/simulator/index.js';

export interface DayBenchResult {
  auctions: number;
  participants: number;
  store: boolean;
  wallS: number;
  orders: number;
  ordersPerS: number;
  peakRssMb: number;
  storeMb: number | null;
  /** Orders held in memory at the end (with a store, the open book and the retention window). */
  ordersInMemory: number;
}

/** 996 noise traders and the busy preset's 4 liquidity providers. */
export const DAY_MARKET = { preset: 'busy', noise: { count: 996 } } as const;

export function benchDay(
  options: { auctions?: number; store?: string; progress?: boolean } = {},
): DayBenchResult {
  const auctions = options.auctions ?? 8_640;
  if (options.store)
    for (const f of [options.store, `${options.store}-wal`, `${options.store}-shm`])
      rmSync(f, { force: true });
  const sim = createSimulator({
    clock: 'manual',
    startTime: '2026-01-01T00:00:00Z',
    seed: 1,
    market: DAY_MARKET,
    ...(options.store ? { store: options.store } : {}),
  });
  const started = performance.now();
  // The first advance opens auction 1 (participants act) ; each 10 s after clears one and opens the next.
  for (let i = 0; i < auctions; i++) {
    sim.advance(10_000);
    if (options.progress && (i + 1) % 50 === 0) {
      const s = (performance.now() - started) / 1000;
      console.error(
        `${i + 1} auctions, ${s.toFixed(1)} s, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
      );
    }
  }
  const wallS = (performance.now() - started) / 1000;
  const state = sim.getState();
  const orders = state.market?.placed ?? 0;
  const ordersInMemory = sim.engine.state.orders.size;
  void sim.close();
  const storeMb = options.store && existsSync(options.store) ? statSync(options.store).size / 2 ** 20 : null;
  return {
    auctions,
    participants: state.market?.participants ?? 0,
    store: Boolean(options.store),
    wallS: Number(wallS.toFixed(1)),
    orders,
    ordersPerS: Math.round(orders / wallS),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    storeMb: storeMb === null ? null : Math.round(storeMb),
    ordersInMemory,
  };
}

/** One run in its own process (peak RSS is per process): what bench/run.ts calls. */
export function benchDayInChild(options: { auctions?: number; store?: string } = {}): DayBenchResult {
  const args = [fileURLToPath(import.meta.url), '--json'];
  if (options.auctions !== undefined) args.push('--auctions', String(options.auctions));
  if (options.store) args.push('--store', options.store);
  const out = execFileSync(process.execPath, [...process.execArgv, ...args], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as DayBenchResult;
}

/** The value after `name` on the command line (the benches' flags). */
export function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const auctions = flag('--auctions');
  const store = flag('--store');
  const result = benchDay({
    ...(auctions ? { auctions: Number(auctions) } : {}),
    ...(store ? { store } : {}),
    progress: process.argv.includes('--progress'),
  });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
  else {
    console.table([result]);
    console.log(
      `${result.auctions} auctions in ${result.wallS} s (target for 8,640: < 120 s), peak RSS ${result.peakRssMb} MB (target < 1024 MB)`,
    );
  }
}
