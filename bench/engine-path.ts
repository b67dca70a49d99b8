/**
 * The whole engine path for a book of N orders (`npx tsx bench/clearing.ts --engine-only`, and
 * `npm run bench`): orders placed through the simulator's engine, then lock, clear and settle,
 * events and balances included, one child process per size and variant so that each peak RSS is
 * that run's alone. Variant `engine`: the simulator as created (its webhook platform attached, no
 * subscription, no listener); `engine+ws`: with `sim.listen()`, so a WebSocket endpoint is attached
 * (no socket connected).
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { clearOrders } from '../src/simulator/engine/clearing.js';
import { seededRandom as prng } from '../src/simulator/engine/ids.js';
import { createSimulator, SEEDED } from '../src/simulator/index.js';
import { median, REFERENCE_FEE, timeMs } from './clearing-support.js';

export interface EnginePathRow {
  /** 'engine': nobody listening (events skipped); 'engine+ws': a WebSocket endpoint attached, no socket. */
  variant: EngineVariant;
  orders: number;
  placeMs: number;
  lockMs: number;
  clearMs: number;
  settleMs: number;
  /** lock + clear + settle: the design target is under 2,000 ms at 1,000,000 orders. */
  pathMs: number;
  /**
   * CPU time (user + system) of this process over lock + clear + settle: on a shared machine it
   * varies far less than the wall time, which also counts the time other jobs held the core.
   */
  pathCpuMs: number;
  /** clearOrders alone on the same book, in the same process (median of 3): the yardstick. */
  bareClearMs: number;
  /** pathMs / bareClearMs. */
  vsBare: number;
  /** Peak resident set of the child process through the settlement, MB. */
  peakRssMb: number;
  /** Roll children the settlement made (the book's unfilled roll remainders). */
  rolled: number;
  /** checkInvariants after the settlement (run after the timings, not timed). */
  invariantsOk: boolean;
}

export type EngineVariant = 'engine' | 'engine+ws';
export const ENGINE_SIZES = [10_000, 100_000, 1_000_000];

/**
 * One book for the engine path, reproducible by size: half BURN (the burner), half MINT (the
 * minter), 5% market orders, limits on the 0.01 bps grid from 0 to 20 bps, whole amounts of $1 to
 * $199 (1,000,000 orders stay within the seeded balances), post-fill elections roll / fallback /
 * cancel in equal thirds.
 */
function* engineBook(size: number) {
  const random = prng(size);
  const elections = ['roll', 'fallback', 'cancel'] as const;
  for (let i = 0; i < size; i++) {
    const burn = random() < 0.5;
    const who = burn ? SEEDED.burner : SEEDED.minter;
    const dollars = 1 + Math.floor(random() * 199);
    const limit = random() < 0.05 ? null : Math.floor(random() * 2_001);
    const orderId = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    yield {
      entityId: who.entityId,
      input: {
        idempotencyKey: orderId,
        orderType: burn ? ('BURN' as const) : ('MINT' as const),
        amount: { amount: `${dollars}.00`, currency: 'USD' },
        feeBps: limit === null ? null : `${Math.floor(limit / 100)}.${String(limit % 100).padStart(2, '0')}`,
        postFillAction: elections[Math.floor(random() * 3)] ?? 'roll',
        sourceWalletId: burn ? who.walletId : null,
        fiatAccountId: burn ? who.fiatAccountId : null,
      },
      clearing: {
        side: burn ? ('BURN' as const) : ('MINT' as const),
        amountCents: dollars * 100,
        limitCentiBps: limit,
        createdAt: 0,
        orderId,
      },
    };
  }
}

/** Runs one size in this process (the child's side of benchEnginePath). */
async function enginePathChild(size: number, variant: EngineVariant): Promise<EnginePathRow> {
  // Warm-up: a small book through a throwaway simulator, so that the JIT has compiled the path.
  for (let r = 0; r < 3; r++) {
    const warm = createSimulator({ clock: 'manual', maxOrdersPerAuction: Number.MAX_SAFE_INTEGER });
    for (const order of engineBook(5_000)) warm.engine.placeOrder(order.entityId, order.input);
    warm.clearAuction();
    await warm.close();
  }
  // The book is generated as it is placed (not held), so the peak RSS is the simulator's.
  const sim = createSimulator({ clock: 'manual', maxOrdersPerAuction: Number.MAX_SAFE_INTEGER });
  const server = variant === 'engine+ws' ? await sim.listen({ port: 0 }) : undefined;
  const t0 = performance.now();
  for (const order of engineBook(size)) sim.engine.placeOrder(order.entityId, order.input);
  const t1 = performance.now();
  const cpu1 = process.cpuUsage();
  sim.setPhase('lock');
  const t2 = performance.now();
  sim.clearAuction({ settle: false });
  const t3 = performance.now();
  sim.settleAuction();
  const t4 = performance.now();
  const cpu = process.cpuUsage(cpu1);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  // (`orderIds` is what the engine kept before orders were held by their auction, for a before run.)
  const next = sim.state.auctions.get(sim.state.currentAuctionId) as
    | { orders?: unknown[]; orderIds?: unknown[] }
    | undefined;
  const rolled = (next?.orders ?? next?.orderIds)?.length ?? 0;
  const invariantsOk = sim.checkInvariants().length === 0;
  await server?.close();
  await sim.close();
  const clearing = Array.from(engineBook(size), (o) => o.clearing);
  const bare: number[] = [];
  for (let r = 0; r < 3; r++)
    bare.push(timeMs(() => clearOrders(clearing, { referenceFeeCentiBps: REFERENCE_FEE })));
  const pathMs = t4 - t1;
  const bareClearMs = median(bare);
  return {
    variant,
    orders: size,
    placeMs: t1 - t0,
    lockMs: t2 - t1,
    clearMs: t3 - t2,
    settleMs: t4 - t3,
    pathMs,
    pathCpuMs: (cpu.user + cpu.system) / 1000,
    bareClearMs,
    vsBare: pathMs / bareClearMs,
    peakRssMb,
    rolled,
    invariantsOk,
  };
}

/** One child process per size and variant, one after another, so each peak RSS is its own. */
export async function benchEnginePath(
  sizes: number[] = ENGINE_SIZES,
  variants: EngineVariant[] = ['engine', 'engine+ws'],
): Promise<EnginePathRow[]> {
  const rows: EnginePathRow[] = [];
  for (const size of sizes) {
    for (const variant of variants) {
      const args = [
        ...process.execArgv,
        fileURLToPath(import.meta.url),
        '--engine-child',
        String(size),
        variant,
      ];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      if (code !== 0) throw new Error(`engine path child (${size}, ${variant}) exited with ${code}`);
      rows.push(JSON.parse(out.trim().split('\n').at(-1) ?? '') as EnginePathRow);
    }
  }
  return rows;
}

export function formatEngineTable(rows: EnginePathRow[]): string {
  const header =
    '| variant | orders | place ms | lock ms | clear ms | settle ms | lock+clear+settle ms | its CPU ms | bare clear ms | path / bare | peak RSS MB | rolled | invariants |';
  const rule = '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.variant} | ${r.orders.toLocaleString('en-US')} | ${r.placeMs.toFixed(0)} | ${r.lockMs.toFixed(1)} | ` +
      `${r.clearMs.toFixed(0)} | ${r.settleMs.toFixed(0)} | ${r.pathMs.toFixed(0)} | ${r.pathCpuMs.toFixed(0)} | ${r.bareClearMs.toFixed(0)} | ` +
      `${r.vsBare.toFixed(1)}x | ${r.peakRssMb.toFixed(0)} | ${r.rolled.toLocaleString('en-US')} | ${r.invariantsOk ? 'ok' : 'VIOLATED'} |`,
  );
  return [header, rule, ...lines].join('\n');
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const childAt = process.argv.indexOf('--engine-child');
if (isMain && childAt >= 0) {
  const variant = process.argv[childAt + 2] === 'engine+ws' ? 'engine+ws' : 'engine';
  console.log(JSON.stringify(await enginePathChild(Number(process.argv[childAt + 1]), variant)));
}
