/**
 * Placement throughput of the simulator: `npx tsx bench/placements.ts [count]`.
 *
 * Places `count` orders (half BURN by the burner, half MINT by the minter, all in one auction)
 * once straight into the engine and once through the HTTP handler (`sim.handle(new Request(...))`,
 * JSON parse + zod validation + auth + serialisation), and reports placements per second.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createSimulator, SEEDED } from '../src/simulator/index.js';

export interface PlacementBenchRow {
  path: 'engine' | 'handler';
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

function freshSim() {
  // One auction holds everything: no per-auction cap in the way, manual clock so no phase moves.
  return createSimulator({ clock: 'manual', maxOrdersPerAuction: Number.MAX_SAFE_INTEGER });
}

export async function benchPlacements(count = 100_000): Promise<PlacementBenchRow[]> {
  const rows: PlacementBenchRow[] = [];
  {
    const sim = freshSim();
    const entity = (i: number) => (i % 2 === 0 ? SEEDED.burner.entityId : SEEDED.minter.entityId);
    const t0 = performance.now();
    for (let i = 0; i < count; i++) sim.engine.place(entity(i), body(i));
    const seconds = (performance.now() - t0) / 1000;
    rows.push({ path: 'engine', count, seconds, perSecond: count / seconds });
    await sim.close();
  }
  {
    const sim = freshSim();
    const auth = [`Bearer ${SEEDED.burner.apiKey}`, `Bearer ${SEEDED.minter.apiKey}`];
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
    rows.push({ path: 'handler', count: n, seconds, perSecond: n / seconds });
    await sim.close();
  }
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const count = Number(process.argv[2] ?? 100_000);
  for (const r of await benchPlacements(count))
    console.log(
      `${r.path.padEnd(8)} ${String(r.count).padStart(8)} placements in ${r.seconds.toFixed(2)} s: ` +
        `${Math.round(r.perSecond).toLocaleString('en-US')} /s`,
    );
}
