import { isEvent, MatchVenue, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { running, sim, useSimulator } from '../client/simulator-client.js';
import { cassettePath, httpLines, readBack, wsLines } from './files.js';

// `record` on the stream: each connection's open (address and selected protocol, never the
// ticket), every frame both ways in the order they passed, and its close, numbered per file.

useSimulator();

const client = (who: 'burner' | 'minter', record: string) =>
  new MatchVenue({ apiKey: SEEDED[who].apiKey, baseUrl: running.url, record });

describe('record: the stream', () => {
  it('writes open, the frames both ways in order, and close; the ticket call is an http line', async () => {
    const file = cassettePath();
    const burner = client('burner', file);
    const stream = burner.stream.connect();
    const market = stream.market();
    const account = stream.account();
    const snapshot = await market.next();
    expect(await account.ready).toBe(true);
    const placed = await burner.orders.place({
      orderType: 'BURN',
      amount: usd('1000'),
      feeBps: '5',
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    for await (const ev of account) if (isEvent(ev, 'order.accepted')) break;
    await stream.close();

    const doc = readBack(file);
    const ticket = httpLines(doc).find((l) => l.request.path === '/v1/match/ws/ticket');
    expect(ticket).toMatchObject({
      attempt: 1,
      response: { status: 200, body: { data: { ticket: '[redacted]' } } },
    });

    const ws = wsLines(doc);
    expect(new Set(ws.map((l) => l.connection))).toEqual(new Set([1]));
    expect(ws.every((l) => l.keyId === 'burner')).toBe(true);
    expect(ws[0]).toMatchObject({
      event: 'open',
      url: `${running.wsUrl}/v1/match/ws`,
      protocol: 'service-match.v1',
    });
    expect(ws.at(-1)).toMatchObject({ event: 'close', code: expect.any(Number) });
    const frames = ws.slice(1, -1);
    expect(frames.every((l) => l.event === 'send' || l.event === 'receive')).toBe(true);
    const step = (l: (typeof ws)[number]) => {
      const f = l.frame as { type?: string; op?: string; channel?: string; event?: string; id?: unknown };
      return `${l.event} ${f.op ?? f.type}${f.channel ? ` ${f.channel}` : ''}${f.event ? ` ${f.event}` : ''}`;
    };
    const steps = frames.map(step);
    // The server speaks first; each subscribe is answered after it was sent, with its id.
    expect(steps[0]).toBe('receive hello');
    for (const channel of ['market', 'account']) {
      const sent = frames.findIndex((l) => step(l) === `send subscribe ${channel}`);
      const answer = frames.findIndex((l) => step(l) === `receive subscribed ${channel}`);
      expect(sent).toBeGreaterThan(0);
      expect(answer).toBeGreaterThan(sent);
      expect(frames[answer]?.frame).toMatchObject({
        id: (frames[sent]?.frame as { id?: unknown } | undefined)?.id,
      });
    }
    // The frames received are the events the stream delivered, as they came on the wire.
    const snapshotFrame = frames.find((l) => step(l) === 'receive event market auction.snapshot');
    const { seq, ts, channel, event } = snapshot.value ?? {};
    expect(snapshotFrame?.frame).toMatchObject({ type: 'event', seq, ts, channel, event });
    const accepted = frames.find((l) => step(l) === 'receive event account order.accepted');
    // On the wire the amount is in cents.
    expect(accepted?.frame).toMatchObject({ data: { orderId: placed.orderId, amount: 100000 } });
    // Lines are in the order they passed: their times never go back.
    const times = ws.map((l) => Date.parse(l.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('numbers connections per file, across the clients recording to it', async () => {
    const file = cassettePath();
    const streams = [client('burner', file).stream.connect(), client('minter', file).stream.connect()];
    await Promise.all(streams.map((s) => s.market().ready));
    await Promise.all(streams.map((s) => s.close()));
    const opens = wsLines(readBack(file)).filter((l) => l.event === 'open');
    expect(opens.map((l) => l.connection).sort()).toEqual([1, 2]);
    expect(opens.map((l) => l.keyId).sort()).toEqual(['burner', 'minter']);
  });

  it('a reconnect is a new connection number, after its own ticket call', async () => {
    const file = cassettePath();
    const stream = client('burner', file).stream.connect();
    expect(await stream.market().ready).toBe(true);
    const reopened = new Promise<void>((resolve) => {
      let lost = false;
      stream.on('state', ({ state }) => {
        if (state === 'reconnecting') lost = true;
        if (state === 'open' && lost) resolve();
      });
    });
    sim.setFaults({ killSockets: true });
    await reopened;
    await stream.close();
    const doc = readBack(file);
    const ws = wsLines(doc);
    const events = (connection: number) => ws.filter((l) => l.connection === connection).map((l) => l.event);
    for (const connection of [1, 2]) {
      expect(events(connection)[0]).toBe('open');
      expect(events(connection).at(-1)).toBe('close');
    }
    expect(new Set(ws.map((l) => l.connection))).toEqual(new Set([1, 2]));
    // Connection 1 closed before connection 2 opened, and each open followed a ticket call.
    const order = doc.entries.map((e) =>
      e.kind === 'ws' ? `${e.connection} ${e.event}` : e.kind === 'http' ? e.request.path : e.kind,
    );
    const at = (line: string) => order.indexOf(line);
    expect(at('1 close')).toBeLessThan(at('2 open'));
    expect(order.filter((l) => l === '/v1/match/ws/ticket')).toHaveLength(2);
    expect(order.lastIndexOf('/v1/match/ws/ticket')).toBeLessThan(at('2 open'));
    expect(order.lastIndexOf('/v1/match/ws/ticket')).toBeGreaterThan(at('1 close'));
  });
});
