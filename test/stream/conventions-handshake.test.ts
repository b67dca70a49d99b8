import { ConfigurationError, MatchVenue } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { SUBPROTOCOL } from '../../src/contract/ws-protocol.js';
import { connectStream } from '../../src/stream/index.js';
import { extraSocketServer, issueTicket, take, until } from './helpers.js';
import { client, connect, rawSocket, scriptedServer } from './conventions-venue.js';
import { cleanups, useVenue, venue } from './venue-per-test.js';

// Part of the venue's published socket conventions: see conventions-venue.ts.

useVenue();

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
