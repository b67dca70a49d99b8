import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MatchVenue } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { expect } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { SUBPROTOCOL } from '../../src/contract/ws-protocol.js';
import { connectStream, type StreamHost, type VenueStream } from '../../src/stream/index.js';
import { auth, issueTicket, placeOrder } from './helpers.js';
import { cleanups, venue } from './venue-per-test.js';

// Shared by the conventions-*.test.ts files, which check the venue's published socket conventions
// (issue 11, point 3; docs/PROTOCOL.md "## WebSocket"): a hello frame first, money as integer
// cents, `lastClear` on the market snapshot, the subprotocol name as a client option, and a ticket
// answer without `expiresAt`.

export type Frame = Record<string, unknown>;

/** A raw socket whose every frame is recorded from the first one on (the listener is attached before open). */
export async function rawSocket(name: 'burner' | 'minter', protocols?: string[], wsUrl = venue.wsUrl) {
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

export function client(
  name: 'burner' | 'minter',
  options: ConstructorParameters<typeof MatchVenue>[0] = {},
): MatchVenue {
  return new MatchVenue({ apiKey: SEEDED[name].apiKey, baseUrl: venue.url, wsUrl: venue.wsUrl, ...options });
}

export function connect(
  venueClient: MatchVenue,
  options: Parameters<MatchVenue['stream']['connect']>[0] = {},
): VenueStream {
  const stream = venueClient.stream.connect({ reconnect: { initialDelayMs: 1, maxDelayMs: 5 }, ...options });
  cleanups.push(() => stream.close());
  return stream;
}

/** The value at a dotted path, or undefined where the path stops. */
export function at(data: unknown, path: string): unknown {
  let v: unknown = data;
  for (const key of path.split('.')) v = v && typeof v === 'object' ? (v as Frame)[key] : undefined;
  return v;
}

/** Dotted paths of every REST-style Money object (`{amount, currency}`) anywhere in the value. */
export function moneyObjects(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const o = value as Frame;
  if ('amount' in o && 'currency' in o) return [prefix];
  return Object.keys(o).flatMap((k) => moneyObjects(o[k], prefix ? `${prefix}.${k}` : k));
}

export async function post(path: string, name: 'burner' | 'minter', body: unknown): Promise<Frame> {
  const res = await fetch(`${venue.url}${path}`, {
    method: 'POST',
    headers: auth(name),
    body: JSON.stringify(body),
  });
  expect(res.status, path).toBeLessThan(300);
  return ((await res.json()) as { data: Frame }).data;
}

/** A crossing pair (BURN 1000 at most 6 bps, MINT 1000 at least 4 bps), cleared and settled. */
export async function trade(): Promise<{ burnId: string }> {
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
export async function scriptedServer() {
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
