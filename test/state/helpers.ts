import { randomUUID } from 'node:crypto';
import { MatchVenue, type MatchVenueOptions, usd } from 'match-venue';
import type { AccountMirror, MirrorChange } from '../../src/state/index.js';
import { SEEDED } from 'match-venue/simulator';
import { extraSocketServer, startVenue, type Venue } from '../stream/helpers.js';

export { until } from '../stream/helpers.js';

/** A manual-clock simulator on a port, a second socket endpoint with a tiny replay buffer, and a wire. */
export interface Rig {
  venue: Venue;
  /** The endpoint with `replayBufferSize` (default 1: any outage with two account events resyncs). */
  extra: Awaited<ReturnType<typeof extraSocketServer>>;
  wire: Wire;
  close(): Promise<void>;
}

/** The client's HTTP, seen and steered by the test. */
export interface Wire {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  /** While set, ticket requests wait for it: the stream stays away. */
  gate: Promise<void> | undefined;
  /** `METHOD path?query` of every request, in order. */
  requests: string[];
}

function wire(): Wire {
  const w: Wire = {
    gate: undefined,
    requests: [],
    async fetch(input, init) {
      const url = new URL(input);
      w.requests.push(`${init.method ?? 'GET'} ${url.pathname}${url.search}`);
      if (url.pathname === '/v1/match/ws/ticket' && w.gate) await w.gate;
      return fetch(input, init);
    },
  };
  return w;
}

export async function startRig(replayBufferSize = 1): Promise<Rig> {
  const venue = await startVenue();
  const extra = await extraSocketServer(venue.sim, { replayBufferSize });
  return {
    venue,
    extra,
    wire: wire(),
    close: async () => {
      await extra.close();
      await venue.close();
    },
  };
}

/** A client of `entity` over the rig's wire, streaming from the rig's tiny-replay endpoint. */
export function clientOf(rig: Rig, entity: 'minter' | 'burner', options: MatchVenueOptions = {}): MatchVenue {
  return new MatchVenue({
    apiKey: SEEDED[entity].apiKey,
    baseUrl: rig.venue.url,
    wsUrl: rig.extra.wsUrl,
    fetch: rig.wire.fetch,
    maxRetries: 0,
    ...options,
  });
}

/** Drops every socket and keeps the streams away while `during` runs. */
export async function outage(rig: Rig, during: () => Promise<void> | void): Promise<void> {
  let release = () => {};
  rig.wire.gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tickets = () => rig.wire.requests.filter((r) => r.startsWith('POST /v1/match/ws/ticket')).length;
  const before = tickets();
  rig.extra.handle.killSockets();
  // The stream is away once it asks for its next ticket (which waits at the gate).
  for (let i = 0; i < 2000 && tickets() === before; i++) await new Promise((r) => setTimeout(r, 2));
  await during();
  rig.wire.gate = undefined;
  release();
}

/** Collects every change of a mirror as it comes; `stop()` ends the loop. */
export function collect(mirror: AccountMirror): { changes: MirrorChange[]; stop(): Promise<void> } {
  const changes: MirrorChange[] = [];
  const iter = mirror.changes();
  const loop = (async () => {
    for await (const change of iter) changes.push(change);
  })();
  return {
    changes,
    stop: async () => {
      await iter.return?.();
      await loop;
    },
  };
}

export function mintParams(
  amount = '100',
  feeBps = '4',
  postFillAction: 'roll' | 'cancel' | 'fallback' = 'cancel',
) {
  return {
    orderType: 'MINT' as const,
    amount: usd(amount),
    feeBps,
    postFillAction,
    idempotencyKey: randomUUID(),
  };
}

export function burnParams(amount = '100', feeBps = '6') {
  return {
    orderType: 'BURN' as const,
    amount: usd(amount),
    feeBps,
    postFillAction: 'cancel' as const,
    sourceWalletId: SEEDED.burner.walletId,
    fiatAccountId: SEEDED.burner.fiatAccountId,
  };
}

/** What REST's Withdrawal would show of the simulator's record (there is no GET for it). */
export function simWithdrawal(venue: Venue, id: string): Record<string, unknown> | undefined {
  const w = venue.sim.state.withdrawals.get(id);
  if (!w) return undefined;
  return {
    id: w.id,
    status: w.status,
    amount: { amount: (w.amountCents / 100).toFixed(2), currency: 'USD' },
    fiatAccountId: w.fiatAccountId,
    createdAt: new Date(w.createdAt).toISOString(),
    updatedAt: new Date(w.updatedAt).toISOString(),
  };
}

/** The order changes as [orderId, status, feeBps, source] rows. */
export function orderRows(changes: MirrorChange[]): unknown[][] {
  return changes.flatMap((c) =>
    c.kind === 'order' ? [[c.order.orderId, c.order.status, c.order.feeBps, c.source]] : [],
  );
}
