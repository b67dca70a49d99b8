/**
 * REST client overhead: `venue.orders.retrieve(id)` against raw `undici.request` and global
 * `fetch` on the same local simulator server, at concurrency 1 and 64. Reported as ratios to raw
 * undici.request (target: the SDK within 1.10x).
 *
 * Method: many short rounds; in each round every variant runs once, in a rotating order, and the
 * round's time of each variant is divided by raw undici's time in the same round. The median of
 * those paired ratios is the result, with the interquartile range beside it: on a shared machine
 * drift between rounds is larger than the effect measured, and pairing within a round cancels it.
 *   npx tsx bench/rest.ts            (the source, through tsx)
 *   npx tsx bench/rest.ts --dist     (the built package in dist/, what users run; `npm run build` first)
 *   npx tsx bench/rest.ts --record   (adds a client with `record` on, writing to a temporary cassette)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sdk from 'match-venue';
import type * as SimulatorEntry from 'match-venue/simulator';
import { runCheck } from '../src/validation/index.js';
import { Order as OrderCheck } from '../src/generated/validators.js';
import { openRestRig, pairedRounds, percentile, quantile, ratiosTo, run } from './rest-rig.js';

export interface RestBenchOptions {
  /** Requests per variant in each round. Default 400. */
  requests?: number;
  /** Unmeasured requests per variant before the rounds. Default 500. */
  warmup?: number;
  /** Rounds; each yields one paired ratio per variant. Default 15. */
  rounds?: number;
  concurrency?: readonly number[];
  /** Measure the built package (dist/) instead of the source. Default false. */
  dist?: boolean;
  /** Also measure a client recording to a cassette (docs/CASSETTES.md). Default false. */
  record?: boolean;
}

export interface RestBenchRow {
  variant:
    | 'undici.request'
    | 'fetch'
    | 'match-venue'
    | 'match-venue (validateResponses: false)'
    | 'match-venue (record)';
  concurrency: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Median over rounds of (this variant's time / raw undici's time in the same round); lower is better. */
  ratioToUndici: number;
  /** Interquartile range of those per-round ratios: the spread the median comes with. */
  ratioIqr: [number, number];
  /** What was measured: the source (through tsx) or the built package. */
  build: 'source' | 'dist';
}

async function load(dist: boolean): Promise<{ sdk: typeof Sdk; simulator: typeof SimulatorEntry }> {
  if (!dist) return { sdk: await import('match-venue'), simulator: await import('match-venue/simulator') };
  const at = (path: string) => new URL(`../dist/${path}`, import.meta.url).href;
  return { sdk: await import(at('index.js')), simulator: await import(at('simulator/index.js')) };
}

export async function benchRest(options: RestBenchOptions = {}): Promise<RestBenchRow[]> {
  const total = options.requests ?? 400;
  const warmup = options.warmup ?? 500;
  const rounds = options.rounds ?? 15;
  const levels = options.concurrency ?? [1, 64];
  const build = options.dist ? 'dist' : 'source';
  const { sdk, simulator } = await load(options.dist ?? false);
  const rig = await openRestRig(sdk, simulator);
  const cassetteDir = options.record ? mkdtempSync(join(tmpdir(), 'mv-bench-record-')) : undefined;
  try {
    const venue = rig.client(sdk);
    const trusting = rig.client(sdk, { validateResponses: false });
    const variants: Partial<Record<RestBenchRow['variant'], () => Promise<unknown>>> = {
      'undici.request': rig.undici,
      fetch: async () => {
        const res = await fetch(rig.url, { headers: rig.headers });
        const body = (await res.json()) as { data: { orderId: string } };
        if (res.status !== 200 || !body.data.orderId) throw new Error('bad response');
      },
      'match-venue': async () => {
        const order = await venue.orders.retrieve(rig.orderId);
        if (!order.orderId) throw new Error('bad response');
      },
      'match-venue (validateResponses: false)': async () => {
        const order = await trusting.orders.retrieve(rig.orderId);
        if (!order.orderId) throw new Error('bad response');
      },
    };
    if (cassetteDir) {
      const recording = rig.client(sdk, { record: join(cassetteDir, 'bench.ndjson') });
      variants['match-venue (record)'] = async () => {
        const order = await recording.orders.retrieve(rig.orderId);
        if (!order.orderId) throw new Error('bad response');
      };
    }

    const rows: RestBenchRow[] = [];
    const names = Object.keys(variants) as RestBenchRow['variant'][];
    for (const concurrency of levels) {
      for (const name of names) await run(variants[name]!, warmup, concurrency);
      const latencies = new Map<string, number[]>(names.map((n) => [n, []]));
      const times = await pairedRounds(
        names,
        async (name) => {
          const result = await run(variants[name as RestBenchRow['variant']]!, total, concurrency);
          latencies.get(name)?.push(...result.latencies);
          return result.ms;
        },
        rounds,
      );
      const ratios = ratiosTo(times, 'undici.request');
      for (const variant of names) {
        const r = ratios.get(variant) ?? [];
        const sorted = [...(latencies.get(variant) ?? [])].sort((a, b) => a - b);
        const totalMs = (times.get(variant) ?? []).reduce((a, b) => a + b, 0);
        rows.push({
          variant,
          concurrency,
          requests: total * rounds,
          requestsPerSecond: Math.round(((total * rounds) / totalMs) * 1000),
          p50Ms: Number(percentile(sorted, 50).toFixed(3)),
          p99Ms: Number(percentile(sorted, 99).toFixed(3)),
          ratioToUndici: quantile(r),
          ratioIqr: [quantile(r, 25), quantile(r, 75)],
          build,
        });
      }
    }
    return rows;
  } finally {
    await rig.close();
    if (cassetteDir) rmSync(cassetteDir, { recursive: true, force: true });
  }
}

export interface ValidationBenchRow {
  variant: 'JSON.parse' | 'JSON.parse + generated validator';
  /** Median over rounds of the CPU time per call, in microseconds. */
  usPerCall: number;
  /** Median over rounds of (this variant's time - JSON.parse's time in the same round). */
  addedUs: number;
}

/**
 * What checking one `orders.retrieve` answer costs in this process, without a socket: the same
 * order body (a filled BURN order) parsed, then checked by the generated check the client (and
 * the simulator) uses. Paired rounds as above; the socket's noise is absent here, so this is
 * the part of the REST ratio that response validation accounts for.
 */
export function benchValidation(calls = 20_000, rounds = 15): ValidationBenchRow[] {
  const order = {
    orderId: '10000000-0000-4000-8000-0000000000aa',
    auctionId: 7,
    lineage: { parentOrderId: null, childOrderId: '20000000-0000-4000-8000-0000000000bb' },
    orderType: 'BURN',
    amount: { amount: '1000.00', currency: 'USD' },
    feeBps: '5.00',
    postFillAction: 'roll',
    status: 'partial_fill',
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:05.000Z',
    fill: {
      filledAmount: { amount: '400.00', currency: 'USD' },
      unfilledAmount: { amount: '600.00', currency: 'USD' },
      clearingFeeBps: '4.50',
      matchedAt: '2026-01-01T10:00:05.000Z',
    },
    sourceWalletId: 'wallet-1',
    fiatAccountId: '20000000-0000-4000-8000-0000000000bb',
  };
  const text = JSON.stringify({ data: order });
  const variants: Record<ValidationBenchRow['variant'], () => unknown> = {
    'JSON.parse': () => JSON.parse(text).data,
    'JSON.parse + generated validator': () => {
      const result = runCheck(OrderCheck, JSON.parse(text).data);
      if (!result.ok) throw new Error('the validator rejected the order');
      return result.value;
    },
  };
  const names = Object.keys(variants) as ValidationBenchRow['variant'][];
  const times = new Map(names.map((n) => [n, [] as number[]]));
  const added = new Map(names.map((n) => [n, [] as number[]]));
  for (const name of names) for (let i = 0; i < calls; i++) variants[name]();
  for (let r = 0; r < rounds; r++) {
    const order = names.map((_, i) => names[(i + r) % names.length]!);
    const round = new Map<ValidationBenchRow['variant'], number>();
    for (const name of order) {
      const call = variants[name];
      const start = performance.now();
      for (let i = 0; i < calls; i++) call();
      round.set(name, ((performance.now() - start) * 1000) / calls);
    }
    for (const name of names) {
      times.get(name)!.push(round.get(name)!);
      added.get(name)!.push(round.get(name)! - round.get('JSON.parse')!);
    }
  }
  return names.map((variant) => ({
    variant,
    usPerCall: Number(quantile(times.get(variant)!).toFixed(2)),
    addedUs: Number(quantile(added.get(variant)!).toFixed(2)),
  }));
}

/** One line per SDK row: the median paired ratio, its spread, and the verdict against 1.10x. */
export function describeRest(rows: readonly RestBenchRow[]): string[] {
  return rows
    .filter((r) => r.variant.startsWith('match-venue'))
    .map((row) => {
      const verdict = row.ratioToUndici <= 1.1 ? 'within' : 'OVER';
      return (
        `${row.build}, concurrency ${row.concurrency}: ${row.variant} ${row.ratioToUndici}x raw undici.request ` +
        `(IQR ${row.ratioIqr[0]}-${row.ratioIqr[1]}; ${verdict} the 1.10x target)`
      );
    });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(benchValidation());
  const rows = await benchRest({
    dist: process.argv.includes('--dist'),
    record: process.argv.includes('--record'),
  });
  console.table(rows);
  for (const line of describeRest(rows)) console.log(line);
}
