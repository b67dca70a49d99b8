import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigurationError, isEvent, MatchVenue } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { SOCKET_EVENT_PAYLOADS, SOCKET_MONEY_FIELDS } from '../../src/contract/ws-codec.js';
import { SUBPROTOCOL } from '../../src/contract/ws-protocol.js';
import {
  connectStream,
  type StreamEvent,
  type StreamHost,
  type VenueStream,
} from '../../src/stream/index.js';
import {
  auth,
  extraSocketServer,
  issueTicket,
  placeOrder,
  startVenue,
  take,
  until,
  type Venue,
} from './helpers.js';

// The venue's published socket conventions (issue 11, point 3; docs/PROTOCOL.md "## WebSocket"):
// a hello frame first, money as integer cents, `lastClear` on the market snapshot, the subprotocol
// name as a client option, and a ticket answer without `expiresAt`.

let venue: Venue;
const cleanups: (() => Promise<void> | void)[] = [];

beforeEach(async () => {
  venue = await startVenue();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await venue.close();
});

type Frame = Record<string, unknown>;

/** A raw socket whose every frame is recorded from the first one on (the listener is attached before open). */
async function rawSocket(name: 'burner' | 'minter', protocols?: string[], wsUrl = venue.wsUrl) {
  const ticket = await issueTicket(venue.url, name);
  const ws = new WebSocket(`${wsUrl}/v1/match/ws`, protocols ?? [SUBPROTOCOL, `ticket.${ticket}`]);
  cleanups.push(() => ws.terminate());
  const frames: Frame[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(d.toString()) as Frame));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const events = () => frames.filter((f) => f.type === 'event');
  return { ws, frames, events };
}

function client(
  name: 'burner' | 'minter',
  options: ConstructorParameters<typeof MatchVenue>[0] = {},
): MatchVenue {
  return new MatchVenue({ apiKey: SEEDED[name].apiKey, baseUrl: venue.url, wsUrl: venue.wsUrl, ...options });
}

function connect(
  venueClient: MatchVenue,
  options: Parameters<MatchVenue['stream']['connect']>[0] = {},
): VenueStream {
  const stream = venueClient.stream.connect({ reconnect: { initialDelayMs: 1, maxDelayMs: 5 }, ...options });
  cleanups.push(() => stream.close());
  return stream;
}

/** The value at a dotted path, or undefined where the path stops. */
function at(data: unknown, path: string): unknown {
  let v: unknown = data;
  for (const key of path.split('.')) v = v && typeof v === 'object' ? (v as Frame)[key] : undefined;
  return v;
}

/** Dotted paths of every REST-style Money object (`{amount, currency}`) anywhere in the value. */
function moneyObjects(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const o = value as Frame;
  if ('amount' in o && 'currency' in o) return [prefix];
  return Object.keys(o).flatMap((k) => moneyObjects(o[k], prefix ? `${prefix}.${k}` : k));
}

async function post(path: string, name: 'burner' | 'minter', body: unknown): Promise<Frame> {
  const res = await fetch(`${venue.url}${path}`, {
    method: 'POST',
    headers: auth(name),
    body: JSON.stringify(body),
  });
  expect(res.status, path).toBeLessThan(300);
  return ((await res.json()) as { data: Frame }).data;
}

/** A crossing pair (BURN 1000 at most 6 bps, MINT 1000 at least 4 bps), cleared and settled. */
async function trade(): Promise<{ burnId: string }> {
  const burnId = await placeOrder(venue.url, 'burner', 'BURN', '1000.00');
  await placeOrder(venue.url, 'minter', 'MINT', '1000.00');
  venue.sim.clearAuction({ settle: false });
  venue.sim.settleAuction();
  return { burnId };
}

/**
 * A socket server that speaks just enough of the protocol: it records what it sends and receives
 * in order, answers subscribe with subscribed and a market snapshot, and says hello when told.
 */
async function scriptedServer() {
  const server = createServer();
  const wss = new WebSocketServer({ server, handleProtocols: () => SUBPROTOCOL });
  const log: string[] = [];
  const opened: number[] = [];
  let socket: WebSocket | undefined;
  wss.on('connection', (ws, _req: IncomingMessage) => {
    socket = ws;
    opened.push(Date.now());
    log.push('open');
    ws.on('message', (d) => {
      const f = JSON.parse(d.toString()) as Frame;
      log.push(`${f.op} ${f.channel ?? ''} @${Date.now() - (opened[0] as number)}`.trim());
      if (f.op !== 'subscribe') return;
      ws.send(
        JSON.stringify({
          type: 'subscribed',
          channel: f.channel,
          seq: 0,
          ts: new Date().toISOString(),
          id: f.id,
        }),
      );
      if (f.channel === 'market')
        ws.send(
          JSON.stringify({
            type: 'event',
            channel: 'market',
            seq: 0,
            event: 'auction.snapshot',
            data: { auction: { auctionId: 1, matchedVolume: 0 }, settling: null, lastClear: null },
            ts: new Date().toISOString(),
          }),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  const stream = (options = {}, listOrders: StreamHost['listOrders'] = async function* () {}) => {
    const s = connectStream(
      { wsUrl: `ws://127.0.0.1:${port}`, ticket: async () => ({ ticket: 't' }), listOrders },
      options,
    );
    cleanups.push(() => s.close());
    return s;
  };
  return {
    log,
    stream,
    connected: () => socket !== undefined,
    send(frame: Frame) {
      socket?.send(JSON.stringify(frame));
    },
    sendHello() {
      log.push('hello');
      socket?.send(JSON.stringify({ type: 'hello', protocol: SUBPROTOCOL, ts: new Date().toISOString() }));
    },
  };
}

describe('hello', () => {
  it('the simulator greets every socket with hello before any other frame', async () => {
    const { ws, frames } = await rawSocket('burner');
    ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    await until(() => frames.length >= 3, 'hello, subscribed and the snapshot');
    expect(frames[0]).toEqual({
      type: 'hello',
      protocol: SUBPROTOCOL,
      ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      heartbeatMs: 30_000,
    });
    expect(frames.slice(1).map((f) => f.type)).toEqual(['subscribed', 'event']);
  });

  it('the client subscribes only after hello, and keeps the subscriptions asked for before it', async () => {
    const server = await scriptedServer();
    const stream = server.stream({ helloTimeoutMs: 60_000 });
    const market = stream.market();
    await until(server.connected, 'the socket');
    // Asked for while the socket is open but the server has not said hello yet.
    const account = stream.account();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.log).toEqual(['open']);
    server.sendHello();
    expect(await market.ready).toBe(true);
    expect(await account.ready).toBe(true);
    expect(server.log.map((l) => l.replace(/ @\d+$/, ''))).toEqual([
      'open',
      'hello',
      'subscribe market',
      'subscribe account',
    ]);
    expect((await take(market, 1))[0]?.event).toBe('auction.snapshot');
  });

  it('a server that never says hello: the client subscribes after helloTimeoutMs (default 1 s) and streams', async () => {
    const quick = await scriptedServer();
    const market = quick.stream({ helloTimeoutMs: 300 }).market();
    expect(await market.ready).toBe(true);
    const [snapshot] = await take(market, 1);
    expect(snapshot?.data).toEqual({
      auction: { auctionId: 1, matchedVolume: { amount: '0.00', currency: 'USD' } },
      settling: null,
      lastClear: null,
    });
    const waited = Number(/@(\d+)$/.exec(quick.log[1] ?? '')?.[1]);
    expect(quick.log[1]).toMatch(/^subscribe market @/);
    expect(waited).toBeGreaterThanOrEqual(290);

    const byDefault = await scriptedServer();
    const account = byDefault.stream().account();
    expect(await account.ready).toBe(true);
    const waitedByDefault = Number(/@(\d+)$/.exec(byDefault.log[1] ?? '')?.[1]);
    expect(waitedByDefault).toBeGreaterThanOrEqual(990);
    expect(waitedByDefault).toBeLessThan(5_000);
  });

  it('refuses a helloTimeoutMs that is not a non-negative number', () => {
    const host = { wsUrl: 'ws://127.0.0.1:9', ticket: async () => ({ ticket: 't' }), async *listOrders() {} };
    expect(() => connectStream(host, { helloTimeoutMs: -1 })).toThrow(
      'helloTimeoutMs must be a non-negative number of milliseconds, got -1',
    );
  });
});

describe('money on the socket is integer cents', () => {
  it('every money field of every event kind the simulator sends, snapshot included, is a bare integer', async () => {
    const burner = await rawSocket('burner');
    const minter = await rawSocket('minter');
    burner.ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    burner.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 2 }));
    minter.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
    await until(() => minter.frames.some((f) => f.type === 'subscribed'), 'subscriptions');
    await until(() => burner.frames.filter((f) => f.type === 'subscribed').length === 2, 'subscriptions');
    await placeOrder(venue.url, 'burner', 'BURN', '1000.00');
    await placeOrder(venue.url, 'minter', 'MINT', '1000.00');
    venue.sim.clearAuction({ settle: false });
    // A snapshot with an auction settling and a last clear: every snapshot money field is set.
    const late = await rawSocket('burner');
    late.ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    await until(() => late.events().length === 1, 'the snapshot');
    venue.sim.settleAuction();
    await post('/v1/match/withdrawals', 'minter', {
      idempotencyKey: randomUUID(),
      amount: { amount: '1.00', currency: 'USD' },
      fiatAccountId: SEEDED.minter.fiatAccountId,
    });
    venue.sim.advance(5_000);
    await until(
      () =>
        minter.events().some((e) => e.event === 'withdrawal.updated' && at(e.data, 'status') === 'completed'),
      'the withdrawal to complete',
    );

    const events = [...burner.events(), ...minter.events(), ...late.events()];
    expect(new Set(events.map((e) => e.event))).toEqual(new Set(SOCKET_EVENT_PAYLOADS.keys()));
    const seen = new Set<string>();
    for (const e of events) {
      expect(moneyObjects(e.data), `${e.event} carries no Money object`).toEqual([]);
      const payload = SOCKET_EVENT_PAYLOADS.get(e.event as string);
      for (const path of SOCKET_MONEY_FIELDS[payload as keyof typeof SOCKET_MONEY_FIELDS]) {
        const value = at(e.data, path);
        if (value === undefined || value === null) continue;
        expect(Number.isSafeInteger(value) && (value as number) >= 0, `${e.event} ${path} = ${value}`).toBe(
          true,
        );
        seen.add(`${payload}:${path}`);
      }
    }
    // Every field of the table held a value at least once in this run.
    const every = Object.entries(SOCKET_MONEY_FIELDS).flatMap(([p, paths]) =>
      paths.map((path) => `${p}:${path}`),
    );
    expect([...seen].sort()).toEqual(every.sort());
    const filled = burner
      .events()
      .find((e) => e.event === 'order.updated' && at(e.data, 'status') === 'filled');
    expect(at(filled?.data, 'amount')).toBe(100_000);
    expect(at(filled?.data, 'fill.filledAmount')).toBe(100_000);
  });

  it("the same order: integer cents on the wire, REST's Money out of the client (equal to GET /v1/match/orders/{id})", async () => {
    const raw = await rawSocket('burner');
    raw.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
    await until(() => raw.frames.some((f) => f.type === 'subscribed'), 'the raw subscription');
    const burner = client('burner');
    const stream = connect(burner);
    const account = stream.account();
    expect(await account.ready).toBe(true);
    const { burnId } = await trade();
    const seen: StreamEvent[] = [];
    // next() by hand: leaving a for-await would end the iterator.
    for (;;) {
      const [ev] = await take(account, 1);
      if (!ev) throw new Error('no event');
      seen.push(ev);
      if (isEvent(ev, 'order.updated') && ev.data.orderId === burnId && ev.data.status === 'filled') break;
    }
    const last = seen.filter((e) => isEvent(e, 'order.updated')).at(-1);
    expect(last?.data).toEqual(await burner.orders.retrieve(burnId));
    expect(last?.data).toMatchObject({
      amount: { amount: '1000.00', currency: 'USD' },
      fill: {
        filledAmount: { amount: '1000.00', currency: 'USD' },
        unfilledAmount: { amount: '0.00', currency: 'USD' },
      },
    });
    // Settling the order moved the balance last: the last balance event is the account as REST reads it.
    const [balance] = await take(account, 1);
    expect(balance?.event).toBe('balance.updated');
    expect(balance?.data).toEqual(await burner.account.retrieve());
    // What the socket carried for the same two events.
    await until(() => raw.events().length === seen.length + 1, 'the raw socket to catch up');
    const rawFilled = raw
      .events()
      .find((e) => at(e.data, 'orderId') === burnId && at(e.data, 'status') === 'filled');
    expect(at(rawFilled?.data, 'amount')).toBe(100_000);
    expect(at(rawFilled?.data, 'fill')).toMatchObject({ filledAmount: 100_000, unfilledAmount: 0 });
    expect(at(raw.events().at(-1)?.data, 'stablecoin.total')).toEqual(expect.any(Number));
  });
});

describe('an event the client cannot decode', () => {
  it('is not dropped in silence: a stream.resync names it, then the order is re-read over REST', async () => {
    const server = await scriptedServer();
    const order = {
      orderId: '7f358870-e02f-407a-81b0-603a6c5cb023',
      auctionId: 1,
      lineage: { parentOrderId: null, childOrderId: null },
      orderType: 'MINT',
      amount: { amount: '1000.00', currency: 'USD' },
      feeBps: '4',
      postFillAction: 'roll',
      status: 'pending',
      createdAt: new Date(Date.now() + 60_000).toISOString(),
      updatedAt: new Date(Date.now() + 60_000).toISOString(),
      fill: null,
      sourceWalletId: null,
      fiatAccountId: null,
    };
    const reads: unknown[] = [];
    const stream = server.stream({}, async function* (query) {
      reads.push(query);
      yield { orders: query.status === 'settling' ? [] : [order] };
    });
    const account = stream.account();
    const market = stream.market();
    await until(server.connected, 'the socket');
    server.sendHello();
    expect(await account.ready).toBe(true);
    const ts = new Date(Date.now() + 60_000).toISOString();
    server.send({
      type: 'event',
      channel: 'account',
      seq: 1,
      event: 'order.updated',
      data: { ...order, amount: 10.5 },
      ts,
    });
    server.send({
      type: 'event',
      channel: 'account',
      seq: 2,
      event: 'order.updated',
      data: { ...order, amount: 100_000, feeBps: '5' },
      ts,
    });
    const [resync, fromRest, live] = await take(account, 3);
    expect(resync).toEqual({
      type: 'event',
      channel: 'account',
      seq: 1,
      event: 'stream.resync',
      data: {
        reason: 'undecodable',
        lastSeq: 0,
        resumedAtSeq: 1,
        event: 'order.updated',
        error:
          'order.updated: data.amount must be a non-negative integer number of cents (socket money), got 10.5',
      },
      ts,
    });
    expect(fromRest).toMatchObject({ event: 'order.updated', source: 'rest', data: order });
    expect(live).toMatchObject({
      seq: 2,
      data: { amount: { amount: '1000.00', currency: 'USD' }, feeBps: '5' },
    });
    expect(stream.stats().resyncs).toBe(1);

    // On the market channel too: the consumer is told, and the channel stays where it was.
    const [snapshot] = await take(market, 1);
    expect(snapshot?.event).toBe('auction.snapshot');
    server.send({
      type: 'event',
      channel: 'market',
      seq: 1,
      event: 'auction.opened',
      data: { auctionId: 2, matchedVolume: '0' },
      ts,
    });
    const [marker] = await take(market, 1);
    expect(marker).toMatchObject({
      event: 'stream.resync',
      data: { reason: 'undecodable', event: 'auction.opened' },
    });
  });
});

describe('lastClear', () => {
  it('is null on the snapshot before the first clear; after it, the snapshot and every auction event carry it', async () => {
    const before = await rawSocket('burner');
    before.ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    await until(() => before.events().length === 1, 'the snapshot');
    expect(before.events()[0]?.data).toMatchObject({
      auction: { auctionId: 1 },
      settling: null,
      lastClear: null,
    });

    await placeOrder(venue.url, 'burner', 'BURN', '1000.00');
    await placeOrder(venue.url, 'minter', 'MINT', '1000.00');
    venue.sim.clearAuction({ settle: false });
    await until(() => before.events().some((e) => e.event === 'auction.opened'), 'the next auction');
    const cleared = before.events().find((e) => e.event === 'auction.cleared');
    const clearedAt = at(cleared?.data, 'clearedAt');
    const lastClear = {
      auctionId: 1,
      clearedAt,
      clearingFeeBps: '5.00',
      matchedVolume: 100_000,
      fillsCount: 2,
    };
    expect(at(cleared?.data, 'lastClear')).toEqual(lastClear);
    expect(at(before.events().find((e) => e.event === 'auction.locked')?.data, 'lastClear')).toBeNull();
    expect(at(before.events().find((e) => e.event === 'auction.opened')?.data, 'lastClear')).toEqual(
      lastClear,
    );

    const after = await rawSocket('burner');
    after.ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    await until(() => after.events().length === 1, 'the snapshot');
    expect(after.events()[0]?.data).toMatchObject({
      auction: { auctionId: 2 },
      settling: { auctionId: 1 },
      lastClear,
    });

    // Through the client: typed, with the matched volume as REST's Money.
    const market = connect(client('burner')).market();
    const [snapshot] = await take(market, 1);
    if (!snapshot || !isEvent(snapshot, 'auction.snapshot')) throw new Error('expected the snapshot first');
    expect(snapshot.data.lastClear).toEqual({
      ...lastClear,
      matchedVolume: { amount: '1000.00', currency: 'USD' },
    });
  });
});

describe('the subprotocol name is a client option', () => {
  it('a client configured with circle-match.v1 talks to a server that selects it; the default still works', async () => {
    const circle = await extraSocketServer(venue.sim, { subprotocol: 'circle-match.v1' });
    cleanups.push(() => circle.close());
    const raw = await rawSocket(
      'burner',
      ['circle-match.v1', `ticket.${await issueTicket(venue.url, 'burner')}`],
      circle.wsUrl,
    );
    expect(raw.ws.protocol).toBe('circle-match.v1');
    await until(() => raw.frames.length === 1, 'hello');
    expect(raw.frames[0]).toMatchObject({ type: 'hello', protocol: 'circle-match.v1' });

    const configured = connect(
      client('burner', { wsUrl: circle.wsUrl, wsSubprotocol: 'circle-match.v1' }),
    ).market();
    expect((await take(configured, 1))[0]?.event).toBe('auction.snapshot');
    const byDefault = connect(client('burner')).market();
    expect((await take(byDefault, 1))[0]?.event).toBe('auction.snapshot');
    // The default client offers service-match.v1, which that server does not speak: it never opens.
    const states: string[] = [];
    const mismatched = connect(client('burner', { wsUrl: circle.wsUrl }), {
      reconnect: { maxAttempts: 2, initialDelayMs: 1 },
    });
    mismatched.on('state', (s) => states.push(s.state));
    mismatched.market();
    await until(() => states.includes('closed'), 'the stream to give up');
    expect(states).not.toContain('open');
  });

  it("MATCH_VENUE_WS_SUBPROTOCOL sets it when the option does not; mock mode keeps our spec's name", async () => {
    const circle = await extraSocketServer(venue.sim, { subprotocol: 'circle-match.v1' });
    cleanups.push(() => circle.close());
    // That server speaks only circle-match.v1: an upgrade offering our spec's name is refused.
    const ticket = await issueTicket(venue.url, 'burner');
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${circle.wsUrl}/v1/match/ws`, [SUBPROTOCOL, `ticket.${ticket}`]);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => {});
      cleanups.push(() => ws.terminate());
    });
    expect(refused).toBe(400);
    vi.stubEnv('MATCH_VENUE_WS_SUBPROTOCOL', 'circle-match.v1');
    cleanups.push(() => {
      vi.unstubAllEnvs();
    });
    const fromEnv = connect(client('burner', { wsUrl: circle.wsUrl })).market();
    expect((await take(fromEnv, 1))[0]?.event).toBe('auction.snapshot');
    // The shared mock simulator speaks service-match.v1 whatever the environment names.
    const mock = connect(new MatchVenue({ environment: 'mock', wsSubprotocol: 'circle-match.v1' })).market();
    expect((await take(mock, 1))[0]?.event).toBe('auction.snapshot');
  });

  it('is checked: an HTTP token, not the ticket value', () => {
    expect(() => client('burner', { wsSubprotocol: 'circle match' })).toThrow(ConfigurationError);
    expect(() => client('burner', { wsSubprotocol: 'ticket.abc' })).toThrow(
      'wsSubprotocol must be an HTTP token (letters, digits, .-_ and the like) not starting with "ticket."; got "ticket.[redacted]".',
    );
  });
});
describe('the ticket', () => {
  it('an answer with only `ticket` (no expiresAt) is accepted and the stream opens with it', async () => {
    const burner = new MatchVenue({
      apiKey: SEEDED.burner.apiKey,
      wsUrl: venue.wsUrl,
      // The simulator's REST, with expiresAt taken out of the ticket answer as the venue's examples show it.
      handler: async (req) => {
        const res = await fetch(new Request(new URL(new URL(req.url).pathname, venue.url), req));
        if (!req.url.endsWith('/v1/match/ws/ticket')) return res;
        const body = (await res.json()) as { data: { ticket: string; expiresAt?: string } };
        delete body.data.expiresAt;
        return Response.json(body, { status: res.status });
      },
    });
    const ticket = await burner.stream.ticket();
    expect(Object.keys(ticket)).toEqual(['ticket']);
    const market = connect(burner).market();
    expect((await take(market, 1))[0]?.event).toBe('auction.snapshot');
  });
});
