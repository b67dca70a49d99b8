/**
 * REST client overhead: `venue.orders.retrieve(id)` against raw `undici.request` and global
 * `fetch` on the same local simulator server, at concurrency 1 and 64. Reported as ratios to raw
 * undici.request (target: the SDK within 1.10x).
 *   npx tsx bench/rest.ts
 */
import { pathToFileURL } from 'node:url';
import { MatchVenue, usd } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { Agent, request } from 'undici';
import { VERSION } from '../src/internal/version.js';

export interface RestBenchOptions {
  /** Requests per measured run. Default 3000. */
  requests?: number;
  /** Unmeasured requests before the runs. Default 500. */
  warmup?: number;
  /** Measured runs per variant; the fastest counts. Default 3. */
  rounds?: number;
  concurrency?: readonly number[];
}

export interface RestBenchRow {
  variant: 'undici.request' | 'fetch' | 'match-venue' | 'match-venue (validateResponses: false)';
  concurrency: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Wall time of the run relative to raw undici.request at the same concurrency (lower is better). */
  ratioToUndici: number;
}

type Call = () => Promise<unknown>;

async function run(
  call: Call,
  total: number,
  concurrency: number,
): Promise<{ ms: number; latencies: number[] }> {
  const latencies: number[] = new Array(total);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const t = performance.now();
      await call();
      latencies[i] = performance.now() - t;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ms: performance.now() - start, latencies };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function benchRest(options: RestBenchOptions = {}): Promise<RestBenchRow[]> {
  const total = options.requests ?? 3000;
  const warmup = options.warmup ?? 500;
  const rounds = options.rounds ?? 3;
  const levels = options.concurrency ?? [1, 64];

  const sim = createSimulator();
  const server = await sim.listen();
  try {
    const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: server.url, maxRetries: 0 });
    const trusting = new MatchVenue({
      apiKey: SEEDED.burner.apiKey,
      baseUrl: server.url,
      maxRetries: 0,
      validateResponses: false,
    });
    const placed = await venue.orders.place({
      orderType: 'BURN',
      amount: usd('1000'),
      feeBps: '5',
      postFillAction: 'roll',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    const url = `${server.url}/v1/match/orders/${placed.orderId}`;
    // Byte-for-byte the request the SDK sends, so the ratio measures client-side work only.
    const headers = {
      accept: 'application/json',
      'user-agent': `match-venue-node/${VERSION}`,
      authorization: `Bearer ${SEEDED.burner.apiKey}`,
    };
    // The same pool settings the SDK's shared agent uses.
    const agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connections: 128 });

    const variants: Record<RestBenchRow['variant'], Call> = {
      'undici.request': async () => {
        const res = await request(url, { method: 'GET', headers, dispatcher: agent });
        const body = (await res.body.json()) as { data: { orderId: string } };
        if (res.statusCode !== 200 || !body.data.orderId) throw new Error('bad response');
      },
      fetch: async () => {
        const res = await fetch(url, { headers });
        const body = (await res.json()) as { data: { orderId: string } };
        if (res.status !== 200 || !body.data.orderId) throw new Error('bad response');
      },
      'match-venue': async () => {
        const order = await venue.orders.retrieve(placed.orderId);
        if (!order.orderId) throw new Error('bad response');
      },
      'match-venue (validateResponses: false)': async () => {
        const order = await trusting.orders.retrieve(placed.orderId);
        if (!order.orderId) throw new Error('bad response');
      },
    };

    const rows: RestBenchRow[] = [];
    for (const concurrency of levels) {
      for (const call of Object.values(variants)) await run(call, warmup, concurrency);
      const best = new Map<RestBenchRow['variant'], { ms: number; latencies: number[] }>();
      // Rounds interleave the variants so drift on a shared machine hits them alike.
      for (let r = 0; r < rounds; r++) {
        for (const [name, call] of Object.entries(variants) as [RestBenchRow['variant'], Call][]) {
          const result = await run(call, total, concurrency);
          const prev = best.get(name);
          if (!prev || result.ms < prev.ms) best.set(name, result);
        }
      }
      const base = best.get('undici.request')?.ms ?? 1;
      for (const [variant, result] of best) {
        const sorted = [...result.latencies].sort((a, b) => a - b);
        rows.push({
          variant,
          concurrency,
          requests: total,
          requestsPerSecond: Math.round((total / result.ms) * 1000),
          p50Ms: Number(percentile(sorted, 50).toFixed(3)),
          p99Ms: Number(percentile(sorted, 99).toFixed(3)),
          ratioToUndici: Number((result.ms / base).toFixed(3)),
        });
      }
    }
    await agent.close();
    return rows;
  } finally {
    await sim.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchRest();
  console.table(rows);
  for (const row of rows.filter((r) => r.variant.startsWith('match-venue'))) {
    const verdict = row.ratioToUndici <= 1.1 ? 'within' : 'OVER';
    console.log(
      `concurrency ${row.concurrency}: ${row.variant} ${row.ratioToUndici}x raw undici.request (${verdict} the 1.10x target)`,
    );
  }
}
