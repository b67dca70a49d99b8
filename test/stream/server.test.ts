import { createSimulator, SEEDED } from 'match-venue/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { SUBPROTOCOL } from '../../src/contract/ws-protocol.js';
import { auth, extraSocketServer, issueTicket, placeOrder, startVenue, type Venue } from './helpers.js';

let venue: Venue;
const sockets: WebSocket[] = [];

beforeEach(async () => {
  venue = await startVenue();
});
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await venue.close();
});

function endpoint(): string {
  return `${venue.wsUrl}/v1/match/ws`;
}

/** Opens a raw socket; resolves with it once open, or with the HTTP status of a refused upgrade. */
function open(protocols: string[]): Promise<{ ws: WebSocket } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(endpoint(), protocols);
    sockets.push(ws);
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    ws.on('open', () => resolve({ ws }));
    ws.on('error', () => {});
  });
}

async function openOk(protocols: string[]): Promise<WebSocket> {
  const r = await open(protocols);
  if (!('ws' in r)) throw new Error(`upgrade refused: ${r.status}`);
  return r.ws;
}

/** Collects parsed frames; `next(pred)` waits for the first matching one not yet taken. */
function frames(ws: WebSocket) {
  const got: Record<string, unknown>[] = [];
  let wake: (() => void) | undefined;
  ws.on('message', (d) => {
    got.push(JSON.parse(d.toString()));
    wake?.();
  });
  let cursor = 0;
  return {
    all: got,
    async next(pred: (f: Record<string, unknown>) => boolean = () => true): Promise<Record<string, unknown>> {
      for (;;) {
        while (cursor < got.length) {
          const f = got[cursor++] as Record<string, unknown>;
          if (pred(f)) return f;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

describe('upgrade authentication', () => {
  it('accepts a valid ticket and selects service-match.v1 without echoing the ticket', async () => {
    const ticket = await issueTicket(venue.url, 'burner');
    const ws = await openOk([SUBPROTOCOL, `ticket.${ticket}`]);
    expect(ws.protocol).toBe(SUBPROTOCOL);
  });

  it('answers 401 without a ticket', async () => {
    const r = await open([SUBPROTOCOL]);
    expect(r).toEqual({ status: 401, body: JSON.stringify({ code: 401, message: 'ticket missing' }) });
  });

  it('answers 401 to an expired ticket', async () => {
    const ticket = await issueTicket(venue.url, 'burner');
    venue.sim.advance(31_000);
    const r = await open([SUBPROTOCOL, `ticket.${ticket}`]);
    expect(r).toEqual({ status: 401, body: JSON.stringify({ code: 401, message: 'ticket expired' }) });
  });

  it('answers 401 to a tampered ticket (claims changed, signature kept)', async () => {
    const ticket = await issueTicket(venue.url, 'burner');
    const [h, p, s] = ticket.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: SEEDED.minter.entityId })).toString(
      'base64url',
    );
    const r = await open([SUBPROTOCOL, `ticket.${h}.${forged}.${s}`]);
    expect(r).toEqual({ status: 401, body: JSON.stringify({ code: 401, message: 'ticket invalid' }) });
  });

  it('answers 401 to a reused ticket', async () => {
    const ticket = await issueTicket(venue.url, 'burner');
    await openOk([SUBPROTOCOL, `ticket.${ticket}`]);
    const r = await open([SUBPROTOCOL, `ticket.${ticket}`]);
    expect(r).toEqual({ status: 401, body: JSON.stringify({ code: 401, message: 'ticket reused' }) });
  });

  it('refuses with 400 an upgrade without service-match.v1, leaving the ticket unused', async () => {
    const ticket = await issueTicket(venue.url, 'burner');
    const r = await open(['service-match.v2', `ticket.${ticket}`]);
    expect(r).toEqual({
      status: 400,
      body: JSON.stringify({ code: 400, message: 'Sec-WebSocket-Protocol must include service-match.v1' }),
    });
    const ws = await openOk([SUBPROTOCOL, `ticket.${ticket}`]);
    expect(ws.protocol).toBe(SUBPROTOCOL);
  });
});

describe('protocol', () => {
  async function connect(name: 'burner' | 'minter' = 'burner') {
    const ws = await openOk([SUBPROTOCOL, `ticket.${await issueTicket(venue.url, name)}`]);
    return { ws, f: frames(ws) };
  }

  it('answers ping with pong carrying the id', async () => {
    const { ws, f } = await connect();
    ws.send(JSON.stringify({ op: 'ping', id: 7 }));
    expect(await f.next()).toMatchObject({ type: 'pong', id: 7 });
  });

  it('answers garbage with error frames and keeps the connection', async () => {
    const { ws, f } = await connect();
    ws.send('{not json');
    expect(await f.next()).toMatchObject({ type: 'error', code: 'invalid_json' });
    ws.send('[1,2]');
    expect(await f.next()).toMatchObject({ type: 'error', code: 'invalid_frame' });
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await f.next()).toMatchObject({ type: 'error', code: 'invalid_frame' });
    ws.send(JSON.stringify({ op: 'dance', id: 1 }));
    expect(await f.next()).toEqual({ type: 'error', code: 'unknown_op', message: expect.any(String), id: 1 });
    ws.send(JSON.stringify({ op: 'subscribe', channel: 'gossip', id: 2 }));
    expect(await f.next()).toMatchObject({ type: 'error', code: 'invalid_channel', id: 2 });
    ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', since: -1, id: 3 }));
    expect(await f.next()).toMatchObject({ type: 'error', code: 'invalid_since', id: 3 });
    ws.send(JSON.stringify({ op: 'ping', id: { nested: true } }));
    expect(await f.next()).toMatchObject({ type: 'error', code: 'invalid_frame' });
    ws.send(JSON.stringify({ op: 'ping', id: 4 }));
    expect(await f.next()).toMatchObject({ type: 'pong', id: 4 });
    expect(ws.readyState).toBe(WebSocket.OPEN);
  });

  it('market subscribe answers subscribed with the current seq, then a snapshot', async () => {
    const { ws, f } = await connect();
    ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    const sub = await f.next();
    expect(sub).toMatchObject({ type: 'subscribed', channel: 'market', id: 1, seq: expect.any(Number) });
    expect(sub).not.toHaveProperty('replay');
    const snap = await f.next();
    expect(snap).toMatchObject({ type: 'event', channel: 'market', event: 'auction.snapshot', seq: sub.seq });
    expect(snap.data).toMatchObject({ auction: { auctionId: 1, phase: 'open' } });
  });

  it('numbers events per channel and replays after `since` from the buffer', async () => {
    const a = await connect();
    a.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
    const sub = await a.f.next();
    const base = sub.seq as number;
    await placeOrder(venue.url, 'burner', 'BURN');
    await placeOrder(venue.url, 'burner', 'BURN');
    const live = [];
    for (let i = 0; i < 4; i++) live.push(await a.f.next((x) => x.type === 'event'));
    expect(live.map((e) => e.seq)).toEqual([base + 1, base + 2, base + 3, base + 4]);
    expect(live.map((e) => e.event)).toEqual([
      'order.accepted',
      'balance.updated',
      'order.accepted',
      'balance.updated',
    ]);

    const b = await connect();
    b.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 9, since: base + 1 }));
    expect(await b.f.next()).toMatchObject({
      type: 'subscribed',
      seq: base + 4,
      since: base + 1,
      replay: 'ok',
    });
    const replayed = [];
    for (let i = 0; i < 3; i++) replayed.push(await b.f.next());
    expect(replayed).toEqual(live.slice(1));
  });

  it('says replay is unavailable for a `since` ahead of the sequence', async () => {
    const { ws, f } = await connect();
    ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1, since: 1_000_000 }));
    expect(await f.next()).toMatchObject({ type: 'subscribed', channel: 'account', replay: 'unavailable' });
  });

  it('delivers account events only to their own entity', async () => {
    const burner = await connect('burner');
    const minter = await connect('minter');
    burner.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
    minter.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
    await burner.f.next();
    await minter.f.next();
    await placeOrder(venue.url, 'minter', 'MINT');
    const burnerOrder = await placeOrder(venue.url, 'burner', 'BURN');
    const first = await burner.f.next((x) => x.type === 'event');
    expect(first).toMatchObject({ event: 'order.accepted', data: { orderId: burnerOrder } });
    // Round trip on the burner socket: anything sent to it before the pong has arrived by now.
    burner.ws.send(JSON.stringify({ op: 'ping', id: 2 }));
    await burner.f.next((x) => x.type === 'pong');
    const burnerEvents = burner.f.all.filter((x) => x.type === 'event');
    expect(burnerEvents.map((e) => e.event)).toEqual(['order.accepted', 'balance.updated']);
    expect(JSON.stringify(burnerEvents)).not.toContain(SEEDED.minter.accountId);
    const minterEvent = await minter.f.next((x) => x.type === 'event');
    expect(minterEvent).toMatchObject({ event: 'order.accepted', data: { orderType: 'MINT' } });
  });

  it('unsubscribe stops delivery and is acknowledged', async () => {
    const { ws, f } = await connect();
    ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
    await f.next();
    ws.send(JSON.stringify({ op: 'unsubscribe', channel: 'account', id: 2 }));
    expect(await f.next()).toEqual({ type: 'unsubscribed', channel: 'account', id: 2 });
    await placeOrder(venue.url, 'burner', 'BURN');
    ws.send(JSON.stringify({ op: 'ping', id: 3 }));
    expect(await f.next()).toMatchObject({ type: 'pong', id: 3 });
  });

  it('the killSockets fault terminates every socket', async () => {
    const a = await connect();
    const b = await connect('minter');
    const closed = Promise.all([a.ws, b.ws].map((ws) => new Promise((r) => ws.once('close', r))));
    const res = await fetch(`${venue.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ killSockets: true }),
    });
    expect(res.status).toBeLessThan(300);
    await closed;
    expect([a.ws.readyState, b.ws.readyState]).toEqual([WebSocket.CLOSED, WebSocket.CLOSED]);
  });

  it('a simulator reset drops every socket and restarts the sequences: `since` from before is unavailable', async () => {
    const a = await connect();
    a.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
    const base = (await a.f.next()).seq as number;
    await placeOrder(venue.url, 'burner', 'BURN');
    const last = await a.f.next((x) => x.event === 'balance.updated');
    expect(last.seq).toBe(base + 2);
    const closed = new Promise((r) => a.ws.once('close', r));
    const res = await fetch(`${venue.url}/_sim/reset`, { method: 'POST' });
    expect(res.status).toBe(200);
    await closed;

    const b = await connect();
    b.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 2, since: last.seq }));
    expect(await b.f.next()).toMatchObject({
      type: 'subscribed',
      seq: 0,
      since: last.seq,
      replay: 'unavailable',
    });
    b.ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 3 }));
    expect(await b.f.next()).toMatchObject({ type: 'subscribed', channel: 'market', seq: 0 });
  });
});

describe('x-account-seq on the order list', () => {
  const listSeq = async (name: 'burner' | 'minter' = 'burner') =>
    (await fetch(`${venue.url}/v1/match/orders`, { headers: auth(name) })).headers.get('x-account-seq');

  it("is the caller's account seq at the read, the seq of the last event the list reflects", async () => {
    expect(await listSeq()).toBe('0');
    const ws = await openOk([SUBPROTOCOL, `ticket.${await issueTicket(venue.url, 'burner')}`]);
    const f = frames(ws);
    ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
    await f.next();
    await placeOrder(venue.url, 'burner', 'BURN');
    const last = await f.next((x) => x.event === 'balance.updated');
    expect(last.seq).toBe(2);
    expect([await listSeq(), await listSeq('minter')]).toEqual(['2', '0']);
  });

  it('is left out when no socket endpoint serves the simulator, or when two endpoints number differently', async () => {
    const bare = createSimulator({ clock: 'manual' });
    try {
      const res = await bare.handle(
        new Request('http://sim.local/v1/match/orders', { headers: auth('burner') }),
      );
      expect([res.status, res.headers.get('x-account-seq')]).toEqual([200, null]);
    } finally {
      await bare.close();
    }
    await placeOrder(venue.url, 'burner', 'BURN');
    expect(await listSeq()).toBe('2');
    // A second endpoint attached now numbers from 0 while the first is at 2.
    const late = await extraSocketServer(venue.sim);
    try {
      expect(await listSeq()).toBeNull();
    } finally {
      await late.close();
    }
    expect(await listSeq()).toBe('2');
  });
});
