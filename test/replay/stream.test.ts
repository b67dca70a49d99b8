import { parseCassette, SEEDED } from 'match-venue/simulator';
import { createReplay, type Replay } from 'match-venue/testing';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { cassetteText, httpLine, wsLine } from '../helpers/cassette-lines.js';

const base = 'http://mock.match-venue.localhost';
const auth = { authorization: `Bearer ${SEEDED.burner.apiKey}` };
const ticketCall = httpLine(
  'burner',
  { method: 'POST', path: '/v1/match/ws/ticket' },
  { status: 201, body: { data: { ticket: '[redacted]', expiresAt: '2026-11-29T12:00:30.000Z' } } },
);
const placeCall = httpLine(
  'burner',
  { method: 'POST', path: '/v1/match/orders', body: { orderType: 'BURN' } },
  { status: 201, body: { data: { orderId: 'ord_1' } } },
);
const event = (seq: number, name: string) => ({
  type: 'event',
  channel: 'account',
  seq,
  event: name,
  data: { orderId: 'ord_1' },
  ts: '2026-11-29T12:00:01.000Z',
});

const doc = parseCassette(
  cassetteText(
    ticketCall,
    wsLine(1, 'burner', 'open'),
    wsLine(1, 'burner', 'receive', { frame: { type: 'hello', protocol: 'service-match.v1', ts: 't0' } }),
    wsLine(1, 'burner', 'send', { frame: { op: 'subscribe', channel: 'account', id: 1 } }),
    wsLine(1, 'burner', 'receive', {
      frame: { type: 'subscribed', channel: 'account', id: 1, seq: 0, ts: 't1' },
    }),
    // A heartbeat the recording happened to see: not played.
    wsLine(1, 'burner', 'send', { frame: { op: 'ping', id: 2 } }),
    wsLine(1, 'burner', 'receive', { frame: { type: 'pong', id: 2, ts: 't2' } }),
    placeCall,
    wsLine(1, 'burner', 'receive', { frame: event(1, 'order.accepted') }),
    wsLine(1, 'burner', 'receive', { frame: event(2, 'order.updated') }),
    // The server dropped the socket: the stream reconnected and resubscribed from its last seq.
    wsLine(1, 'burner', 'close', { code: 1006 }),
    ticketCall,
    wsLine(2, 'burner', 'open'),
    wsLine(2, 'burner', 'receive', { frame: { type: 'hello', protocol: 'service-match.v1', ts: 't3' } }),
    wsLine(2, 'burner', 'send', { frame: { op: 'subscribe', channel: 'account', id: 3, since: 2 } }),
    // The client closed this one (a new stream follows: it subscribes without `since`).
    wsLine(2, 'burner', 'close', { code: 1006 }),
    ticketCall,
    wsLine(3, 'burner', 'open'),
    wsLine(3, 'burner', 'send', { frame: { op: 'subscribe', channel: 'account', id: 1 } }),
    wsLine(3, 'burner', 'close', { code: 1006 }),
  ),
);

let replay: Replay | undefined;
afterEach(async () => {
  await replay?.close();
});

const placeRequest = () =>
  new Request(`${base}/v1/match/orders`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ orderType: 'BURN', idempotencyKey: 'k' }),
  });

async function ticket(r: Replay): Promise<string> {
  const res = await r.handle(new Request(`${base}/v1/match/ws/ticket`, { method: 'POST', headers: auth }));
  return ((await res.json()) as { data: { ticket: string } }).data.ticket;
}

/** A raw socket with its frames as a queue read in order. */
function connect(url: string, protocols: string[]) {
  const ws = new WebSocket(`${url}/v1/match/ws`, protocols);
  const frames: { type: string; event?: string; id?: number }[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    frames.push(JSON.parse(data.toString()));
    waiters.shift()?.();
  });
  let read = 0;
  const next = async () => {
    while (frames.length <= read) await new Promise<void>((resolve) => waiters.push(resolve));
    return frames[read++] as (typeof frames)[number];
  };
  ws.on('error', () => {});
  const opened = new Promise<void>((resolve) => ws.on('open', () => resolve()));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const refused = new Promise<number>((resolve) =>
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    }),
  );
  return { ws, frames, next, opened, closed, refused };
}

describe('replay: streams', () => {
  it('plays the recorded frames in order, skips the recorded heartbeat, gates frames after a write', async () => {
    replay = await createReplay(doc);
    const url = await replay.wsUrl();
    const t = await ticket(replay);
    expect(t).toBe('replay-1');
    const socket = connect(url, ['service-match.v1', `ticket.${t}`]);
    expect((await socket.next()).type).toBe('hello');
    // The recorded `subscribed` waits for the client's own frame.
    socket.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
    expect(await socket.next()).toMatchObject({ type: 'subscribed', id: 1 });
    // A ping is answered whenever it comes; the recorded pong is not sent on its own.
    socket.ws.send(JSON.stringify({ op: 'ping', id: 7 }));
    expect(await socket.next()).toMatchObject({ type: 'pong', id: 7 });
    // The pong came after everything the replay could send: order.accepted waits for the place.
    expect(socket.frames.map((f) => f.type)).toEqual(['hello', 'subscribed', 'pong']);
    const placed = await replay.handle(placeRequest());
    expect(placed.status).toBe(201);
    expect((await socket.next()).event).toBe('order.accepted');
    expect((await socket.next()).event).toBe('order.updated');
    // The recorded drop (the client reconnected after it) is replayed as a drop.
    expect(await socket.closed).toBe(1006);
  });

  it("gives the key's next ticket its next recorded connection; past the recording, an idle socket", async () => {
    replay = await createReplay(doc);
    const url = await replay.wsUrl();
    await ticket(replay);
    // Connection 2's frames were recorded after the place: they wait for it.
    await replay.handle(placeRequest());
    const second = await ticket(replay);
    const socket = connect(url, ['service-match.v1', `ticket.${second}`]);
    expect(await socket.next()).toMatchObject({ type: 'hello', ts: 't3' });
    await socket.opened;
    socket.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 3, since: 2 }));
    // Connection 2's close was the client's own (the next stream subscribed afresh): the replay
    // waits for it, answering pings meanwhile.
    socket.ws.send(JSON.stringify({ op: 'ping', id: 1 }));
    expect(await socket.next()).toMatchObject({ type: 'pong', id: 1 });
    socket.ws.close();
    expect(await socket.closed).toBe(1005);
    await ticket(replay);
    // A fourth connection was never recorded: open, silent but for pongs.
    const extra = connect(url, ['service-match.v1', `ticket.${await ticket(replay)}`]);
    await extra.opened;
    extra.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account' }));
    extra.ws.send(JSON.stringify({ op: 'ping', id: 9 }));
    expect(await extra.next()).toMatchObject({ type: 'pong', id: 9 });
    expect(extra.frames).toHaveLength(1);
    extra.ws.close();
    await extra.closed;
  });

  it('refuses a ticket it never issued, and one used twice, with 401', async () => {
    replay = await createReplay(doc);
    const url = await replay.wsUrl();
    expect(await connect(url, ['service-match.v1', 'ticket.forged']).refused).toBe(401);
    const t = await ticket(replay);
    const first = connect(url, ['service-match.v1', `ticket.${t}`]);
    expect((await first.next()).type).toBe('hello');
    expect(await connect(url, ['service-match.v1', `ticket.${t}`]).refused).toBe(401);
    first.ws.terminate();
  });
});
