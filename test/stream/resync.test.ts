import { MatchVenue } from 'match-venue';
import type { AccountEvent, VenueStream } from '../../src/stream/index.js';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  auth,
  extraSocketServer,
  placeOrder,
  type SeededName,
  startVenue,
  take,
  until,
  type Venue,
} from './helpers.js';

// The faults, reproduced through the client resource (`venue.stream.connect()`) against
// the simulator on its manual clock, where every change of an instant shares one `updatedAt`.

let venue: Venue;
let extra: Awaited<ReturnType<typeof extraSocketServer>>;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  venue = await startVenue();
  // A replay buffer of one frame: any outage with two account events forces a REST resync.
  extra = await extraSocketServer(venue.sim, { replayBufferSize: 1 });
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await extra.close();
  await venue.close();
});

/** The client's HTTP, seen and steered by the test. */
interface Wire {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  /** While set, ticket requests wait for it: the stream stays away. */
  gate: Promise<void> | undefined;
  /** Query of every GET /v1/match/orders request, in order. */
  lists: string[];
  /** False: the list answers lose `x-account-seq`, as from a venue that does not send it. */
  accountSeq: boolean;
  /** Runs before a list request is sent. */
  beforeList: ((query: URLSearchParams) => void) | undefined;
}

function wire(): Wire {
  const w: Wire = {
    gate: undefined,
    lists: [],
    accountSeq: true,
    beforeList: undefined,
    async fetch(input, init) {
      const url = new URL(input);
      if (url.pathname === '/v1/match/ws/ticket' && w.gate) await w.gate;
      const isList = url.pathname === '/v1/match/orders' && (init.method ?? 'GET') === 'GET';
      if (isList) {
        const q = new URLSearchParams(url.searchParams);
        q.delete('pageSize');
        w.lists.push(q.toString());
        w.beforeList?.(url.searchParams);
      }
      const res = await fetch(input, init);
      if (!isList || w.accountSeq) return res;
      const headers = new Headers(res.headers);
      headers.delete('x-account-seq');
      return new Response(await res.arrayBuffer(), { status: res.status, headers });
    },
  };
  return w;
}

function connect(name: SeededName = 'burner'): { stream: VenueStream; w: Wire } {
  const w = wire();
  const client = new MatchVenue({
    apiKey: SEEDED[name].apiKey,
    baseUrl: venue.url,
    wsUrl: extra.wsUrl,
    fetch: w.fetch,
    maxRetries: 0,
  });
  const stream = client.stream.connect({ reconnect: { initialDelayMs: 1, maxDelayMs: 5 } });
  cleanups.push(() => stream.close());
  return { stream, w };
}

/** Drops the socket and keeps the stream away while `during` runs. */
async function outage(stream: VenueStream, w: Wire, during: () => Promise<void>): Promise<void> {
  let release = () => {};
  w.gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  extra.handle.killSockets();
  await until(() => stream.state === 'reconnecting', 'reconnecting');
  await during();
  w.gate = undefined;
  release();
}

/**
 * Up to n events; stops early (after a bounded wait) when no more come, so that a missing
 * event fails the assertion that follows instead of timing the test out.
 */
async function takeUpTo(
  iter: AsyncIterator<AccountEvent>,
  n: number,
  waitMs = 3_000,
): Promise<AccountEvent[]> {
  const out: AccountEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const quiet = new Promise<'quiet'>((resolve) => {
    timer = setTimeout(() => resolve('quiet'), waitMs);
  });
  try {
    while (out.length < n) {
      const r = await Promise.race([iter.next(), quiet]);
      if (r === 'quiet' || r.done) break;
      out.push(r.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return out;
}

/** event, source, orderId, status, feeBps: what a consumer tells states apart by. */
function row(e: AccountEvent | undefined): (string | null | undefined)[] {
  const d = (e?.data ?? {}) as { orderId?: string; status?: string; feeBps?: string | null };
  return [e?.event, (e as { source?: string } | undefined)?.source, d.orderId, d.status, d.feeBps];
}

/** Lets the subscription's open-orders read finish (a bounded wait: old clients have none). */
async function openOrdersRead(w: Wire): Promise<void> {
  for (let i = 0; i < 500 && w.lists.length < 2; i++) await new Promise((r) => setTimeout(r, 1));
}

const byOrderId = (a: unknown[], b: unknown[]) => String(a[2]).localeCompare(String(b[2]));

async function modify(orderId: string, feeBps: string, name: SeededName = 'burner'): Promise<void> {
  const res = await fetch(`${venue.url}/v1/match/orders/modify`, {
    method: 'POST',
    headers: auth(name),
    body: JSON.stringify({ auctionId: 1, orderId, feeBps }),
  });
  if (res.status !== 200) throw new Error(`modify: HTTP ${res.status} ${await res.text()}`);
}

async function cancel(orderId: string, name: SeededName = 'burner'): Promise<void> {
  const res = await fetch(`${venue.url}/v1/match/orders/cancel`, {
    method: 'POST',
    headers: auth(name),
    body: JSON.stringify({ auctionId: 1, orderId }),
  });
  if (res.status !== 200) throw new Error(`cancel: HTTP ${res.status} ${await res.text()}`);
}

describe.each([
  { mode: 'with x-account-seq', accountSeq: true },
  { mode: 'without x-account-seq', accountSeq: false },
])('order changes across a resync ($mode)', ({ accountSeq }) => {
  it('after a resync, 10 fee changes of one order in one millisecond arrive live: all 10, in order, once', async () => {
    const { stream, w } = connect();
    w.accountSeq = accountSeq;
    const account = stream.account();
    await account.ready;
    let x = '';
    // Placed while away: the resync delivers it from REST, which used to shadow its later changes.
    await outage(stream, w, async () => {
      x = await placeOrder(venue.url, 'burner', 'BURN');
    });
    expect((await takeUpTo(account, 2)).map(row)).toEqual([
      ['stream.resync', undefined, undefined, undefined, undefined],
      ['order.updated', 'rest', x, 'pending', '6'],
    ]);

    const fees = ['7', '8', '9', '10', '11', '12', '13', '14', '15', '16'];
    for (const fee of fees) await modify(x, fee);
    const live = await takeUpTo(account, 10);
    expect(live.map(row)).toEqual(fees.map((fee) => ['order.updated', undefined, x, 'pending', fee]));
    expect(new Set(live.map((e) => (e.data as { updatedAt: string }).updatedAt)).size).toBe(1);

    // Nothing else is pending: the next event is the next order's.
    const next = await placeOrder(venue.url, 'burner', 'BURN');
    expect((await takeUpTo(account, 1)).map(row)).toEqual([
      ['order.accepted', undefined, next, 'pending', '6'],
    ]);
  });

  it('5 fee changes while the socket is down and replay is unavailable: the consumer gets the final fee, once', async () => {
    const { stream, w } = connect();
    w.accountSeq = accountSeq;
    const account = stream.account();
    await account.ready;
    const x = await placeOrder(venue.url, 'burner', 'BURN');
    expect((await take(account, 2)).map((e) => e.event)).toEqual(['order.accepted', 'balance.updated']);

    await outage(stream, w, async () => {
      for (const fee of ['7', '8', '9', '10', '11']) await modify(x, fee);
    });
    expect((await takeUpTo(account, 2)).map(row)).toEqual([
      ['stream.resync', undefined, undefined, undefined, undefined],
      ['order.updated', 'rest', x, 'pending', '11'],
    ]);
    const next = await placeOrder(venue.url, 'burner', 'BURN');
    expect((await takeUpTo(account, 1)).map(row)).toEqual([
      ['order.accepted', undefined, next, 'pending', '6'],
    ]);
    expect(stream.stats().resyncs).toBe(1);
  });
});

describe('a change both in the REST read and on the socket', () => {
  async function scenario(accountSeq: boolean, inRead: string[]) {
    const { stream, w } = connect();
    w.accountSeq = accountSeq;
    const account = stream.account();
    await account.ready;
    await openOrdersRead(w);
    const x = await placeOrder(venue.url, 'burner', 'BURN');
    expect((await take(account, 2)).map((e) => e.event)).toEqual(['order.accepted', 'balance.updated']);
    let y = '';
    await outage(stream, w, async () => {
      y = await placeOrder(venue.url, 'burner', 'BURN');
      // Once back, and before the resync's first read: these changes reach the socket after the
      // `subscribed` answer (live, held while the resync runs) and are in what REST returns.
      let once = true;
      w.beforeList = () => {
        if (!once) return;
        once = false;
        for (const fee of inRead)
          venue.sim.engine.modifyOrder(SEEDED.burner.entityId, { auctionId: 1, orderId: x, feeBps: fee });
      };
    });
    const events = await takeUpTo(account, 3);
    const z = await placeOrder(venue.url, 'burner', 'BURN');
    events.push(...(await takeUpTo(account, 1)));
    return { events, x, y, z };
  }

  it('with x-account-seq: the live events the read already reflects are dropped, even stale ones', async () => {
    const { events, x, y, z } = await scenario(true, ['7', '8']);
    expect(events.map(row)).toHaveLength(4);
    expect(row(events[0])).toEqual(['stream.resync', undefined, undefined, undefined, undefined]);
    // Both changed in the same instant: their relative order is the list's (by orderId).
    expect(events.slice(1, 3).map(row).sort(byOrderId)).toEqual(
      [
        ['order.updated', 'rest', x, 'pending', '8'],
        ['order.updated', 'rest', y, 'pending', '6'],
      ].sort(byOrderId),
    );
    expect(row(events[3])).toEqual(['order.accepted', undefined, z, 'pending', '6']);
  });

  it('without it: a live event identical to the state REST delivered is dropped', async () => {
    const { events, x, y, z } = await scenario(false, ['7']);
    expect(events.map(row)).toHaveLength(4);
    expect(row(events[0])).toEqual(['stream.resync', undefined, undefined, undefined, undefined]);
    expect(events.slice(1, 3).map(row).sort(byOrderId)).toEqual(
      [
        ['order.updated', 'rest', x, 'pending', '7'],
        ['order.updated', 'rest', y, 'pending', '6'],
      ].sort(byOrderId),
    );
    expect(row(events[3])).toEqual(['order.accepted', undefined, z, 'pending', '6']);
  });
});

describe('resync cost', () => {
  it('reads the open orders, those created since the watermark and the ones that went final while away, not the history', async () => {
    for (let i = 0; i < 250; i++) await placeOrder(venue.url, 'burner', 'BURN');
    const cancelAll = await fetch(`${venue.url}/v1/match/orders/cancel-all`, {
      method: 'POST',
      headers: auth('burner'),
    });
    expect(cancelAll.status).toBe(200);
    venue.sim.advance(1_000);
    // Open before the stream subscribes: only the subscription's open-orders read knows it.
    const y = await placeOrder(venue.url, 'burner', 'BURN');

    const { stream, w } = connect();
    const account = stream.account();
    await account.ready;
    await openOrdersRead(w);
    venue.sim.advance(1_000);
    const x = await placeOrder(venue.url, 'burner', 'BURN');
    const seen = await take(account, 2);
    expect(seen.map((e) => e.event)).toEqual(['order.accepted', 'balance.updated']);
    const watermark = seen[1]?.ts as string;

    const before = w.lists.length;
    let z = '';
    await outage(stream, w, async () => {
      await modify(x, '7');
      await cancel(y);
      z = await placeOrder(venue.url, 'burner', 'BURN');
    });
    const events = await takeUpTo(account, 4, 5_000);
    expect(w.lists.slice(before)).toEqual([
      'page=1&status=pending',
      'page=1&status=settling',
      `page=1&from=${encodeURIComponent(watermark)}`,
      `page=1&orderId=${y}`,
    ]);
    expect(events[0]).toMatchObject({ event: 'stream.resync', data: { reason: 'replay-unavailable' } });
    expect(events.slice(1).map(row).sort(byOrderId)).toEqual(
      [
        ['order.updated', 'rest', x, 'pending', '7'],
        ['order.updated', 'rest', y, 'cancelled', '6'],
        ['order.updated', 'rest', z, 'pending', '6'],
      ].sort(byOrderId),
    );
  });

  it('when the open orders could not be read at subscribe, the resync reads every order and still finds the change', async () => {
    const y = await placeOrder(venue.url, 'burner', 'BURN');
    venue.sim.advance(1_000);
    const { stream, w } = connect();
    let refused = 0;
    w.beforeList = (q) => {
      if (q.get('status') === 'pending' && refused === 0) {
        refused += 1;
        venue.sim.setFaults({ errorRate: 1 });
      }
    };
    const account = stream.account();
    await account.ready;
    await until(() => refused === 1 && w.lists.length === 1, 'the refused open-orders read', 2_000);
    for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 1));
    venue.sim.setFaults({ errorRate: 0 });
    const x = await placeOrder(venue.url, 'burner', 'BURN');
    expect((await take(account, 2)).map((e) => e.event)).toEqual(['order.accepted', 'balance.updated']);

    const before = w.lists.length;
    await outage(stream, w, async () => {
      await cancel(y);
      await modify(x, '7');
    });
    const events = await takeUpTo(account, 3);
    expect(events.map(row)).toEqual([
      ['stream.resync', undefined, undefined, undefined, undefined],
      ['order.updated', 'rest', y, 'cancelled', '6'],
      ['order.updated', 'rest', x, 'pending', '7'],
    ]);
    expect(w.lists.slice(before)).toEqual(['page=1']);
  });
});
