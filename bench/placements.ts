/**
 * Placement throughput of the simulator: `npx tsx bench/placements.ts [count]`.
 *
 * Places `count` orders (half BURN by the burner, half MINT by the minter, all in one auction)
 * once straight into the engine, once through the HTTP handler (`sim.handle(new Request(...))`,
 * JSON parse + zod validation + auth + serialisation) and once over loopback HTTP (`listen()`, 16
 * keep-alive connections), and reports placements per second; then the same with the background
 * market on (`market: 'busy'`: its participants' orders rest in the auction placed into).
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { createSimulator, SEEDED } from '../src/simulator/index.js';

export interface PlacementBenchRow {
  path: 'engine' | 'handler' | 'http';
  market: 'off' | 'busy';
  count: number;
  seconds: number;
  perSecond: number;
}

const B = SEEDED.burner;

function orderId(i: number): string {
  return `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
}

function body(i: number) {
  return i % 2 === 0
    ? {
        idempotencyKey: orderId(i),
        orderType: 'BURN' as const,
        amount: { amount: '100.00', currency: 'USD' },
        feeBps: String(i % 10),
        postFillAction: 'roll' as const,
        sourceWalletId: B.walletId,
        fiatAccountId: B.fiatAccountId,
      }
    : {
        idempotencyKey: orderId(i),
        orderType: 'MINT' as const,
        amount: { amount: '100.00', currency: 'USD' },
        feeBps: String(i % 10),
        postFillAction: 'cancel' as const,
      };
}

function freshSim(market: 'off' | 'busy') {
  // One auction holds everything: no per-auction cap in the way, manual clock so no phase moves.
  return createSimulator({
    clock: 'manual',
    maxOrdersPerAuction: Number.MAX_SAFE_INTEGER,
    ...(market === 'off' ? {} : { market }),
  });
}

const AUTH = [`Bearer ${SEEDED.burner.apiKey}`, `Bearer ${SEEDED.minter.apiKey}`];

/** `n` placements over loopback HTTP, `concurrency` at a time on keep-alive connections. */
async function overHttp(market: 'off' | 'busy', n: number, concurrency = 16): Promise<number> {
  const sim = freshSim(market);
  const running = await sim.listen({ port: 0 });
  const dispatcher = new Agent({ connections: concurrency });
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const res = await request(`${running.url}/v1/match/orders`, {
        method: 'POST',
        dispatcher,
        headers: { authorization: AUTH[i % 2] ?? '', 'content-type': 'application/json' },
        body: JSON.stringify(body(i)),
      });
      const text = await res.body.text();
      if (res.statusCode !== 202) throw new Error(`placement ${i} answered ${res.statusCode}: ${text}`);
    }
  };
  try {
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    return (performance.now() - t0) / 1000;
  } finally {
    await dispatcher.close();
    await running.close();
    await sim.close();
  }
}

export async function benchPlacements(count = 100_000): Promise<PlacementBenchRow[]> {
  const rows: PlacementBenchRow[] = [];
  for (const market of ['off', 'busy'] as const) rows.push(...(await placements(count, market)));
  return rows;
}

async function placements(count: number, market: 'off' | 'busy'): Promise<PlacementBenchRow[]> {
  const rows: PlacementBenchRow[] = [];
  {
    const sim = freshSim(market);
    const entity = (i: number) => (i % 2 === 0 ? SEEDED.burner.entityId : SEEDED.minter.entityId);
    const t0 = performance.now();
    for (let i = 0; i < count; i++) sim.engine.placeOrder(entity(i), body(i));
    const seconds = (performance.now() - t0) / 1000;
    rows.push({ path: 'engine', market, count, seconds, perSecond: count / seconds });
    await sim.close();
  }
  {
    const sim = freshSim(market);
    const auth = AUTH;
    const n = Math.max(1, Math.floor(count / 4));
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const res = await sim.handle(
        new Request('http://sim.bench/v1/match/orders', {
          method: 'POST',
          headers: { authorization: auth[i % 2] ?? '', 'content-type': 'application/json' },
          body: JSON.stringify(body(i)),
        }),
      );
      if (res.status !== 202) throw new Error(`placement ${i} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
    const seconds = (performance.now() - t0) / 1000;
    rows.push({ path: 'handler', market, count: n, seconds, perSecond: n / seconds });
    await sim.close();
  }
  const n = Math.max(1, Math.floor(count / 4));
  const seconds = await overHttp(market, n);
  rows.push({ path: 'http', market, count: n, seconds, perSecond: n / seconds });
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const count = Number(process.argv[2] ?? 100_000);
  for (const r of await benchPlacements(count))
    console.log(
      `${r.path.padEnd(8)} market ${r.market.padEnd(5)} ${String(r.count).padStart(8)} placements in ${r.seconds.toFixed(2)} s: ` +
        `${Math.round(r.perSecond).toLocaleString('en-US')} /s`,
    );
}
