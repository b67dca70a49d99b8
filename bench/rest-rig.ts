/**
 * The rig the REST benches share (bench/rest.ts, bench/telemetry.ts): a local simulator with one
 * resting BURN order, the byte-for-byte request the SDK sends for `orders.retrieve`, raw undici
 * with the SDK's pool settings, and paired rounds (every variant once per round in a rotating
 * order, each round's time divided by the baseline's in the same round: on a shared machine drift
 * between rounds is larger than the effects measured, and pairing within a round cancels it).
 */
import type * as Sdk from 'match-venue';
import type * as SimulatorEntry from 'match-venue/simulator';
import { Agent, request } from 'undici';
import { VERSION } from '../src/generated/version.js';

type Call = () => Promise<unknown>;

/** `total` calls, `concurrency` at a time: the whole run's time and each call's latency. */
export async function run(
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

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** The p-th percentile of unsorted values, to 3 decimals. */
export function quantile(values: readonly number[], p = 50): number {
  return Number(
    percentile(
      [...values].sort((a, b) => a - b),
      p,
    ).toFixed(3),
  );
}

/**
 * `rounds` rounds of every name, rotating the order so no variant always runs first (or right
 * after the same neighbour); answers each name's time per round.
 */
export async function pairedRounds(
  names: readonly string[],
  time: (name: string) => Promise<number>,
  rounds: number,
): Promise<Map<string, number[]>> {
  const out = new Map(names.map((n) => [n, [] as number[]]));
  for (let r = 0; r < rounds; r++)
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length] as string;
      out.get(name)?.push(await time(name));
    }
  return out;
}

/** Per-round ratios of each name's time to `base`'s. */
export function ratiosTo(times: Map<string, number[]>, base: string): Map<string, number[]> {
  const b = times.get(base) ?? [];
  return new Map([...times].map(([name, ms]) => [name, ms.map((t, i) => t / (b[i] ?? Number.NaN))]));
}

export interface RestRig {
  /** A client of `sdk` on the rig's server (no retries), with `extra` options. */
  client(sdk: typeof Sdk, extra?: Sdk.MatchVenueOptions): Sdk.MatchVenue;
  /** The resting order's id, and the URL and headers of its GET as the SDK sends it. */
  orderId: string;
  url: string;
  headers: Record<string, string>;
  /** Raw `undici.request` of the same GET, with the SDK's headers and pool settings. */
  undici: Call;
  close(): Promise<void>;
}

/** A simulator listening on loopback with one resting BURN order of the seeded burner. */
export async function openRestRig(sdk: typeof Sdk, simulator: typeof SimulatorEntry): Promise<RestRig> {
  const { createSimulator, SEEDED } = simulator;
  const sim = createSimulator();
  const server = await sim.listen();
  const client = (s: typeof Sdk, extra: Sdk.MatchVenueOptions = {}) =>
    new s.MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: server.url, maxRetries: 0, ...extra });
  const placed = await client(sdk).orders.place({
    orderType: 'BURN',
    amount: sdk.usd('1000'),
    feeBps: '5',
    postFillAction: 'roll',
    sourceWalletId: SEEDED.burner.walletId,
    fiatAccountId: SEEDED.burner.fiatAccountId,
  });
  const url = `${server.url}/v1/match/orders/${placed.orderId}`;
  // Byte-for-byte the request the SDK sends, so a ratio measures client-side work only.
  const headers = {
    accept: 'application/json',
    'user-agent': `match-venue-node/${VERSION}`,
    authorization: `Bearer ${SEEDED.burner.apiKey}`,
  };
  // The same pool settings the SDK's shared agent uses.
  const agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connections: 128 });
  return {
    client,
    orderId: placed.orderId,
    url,
    headers,
    undici: async () => {
      const res = await request(url, { method: 'GET', headers, dispatcher: agent });
      const body = (await res.body.json()) as { data: { orderId: string } };
      if (res.statusCode !== 200 || !body.data.orderId) throw new Error('bad response');
    },
    close: async () => {
      await agent.close();
      await sim.close();
    },
  };
}
