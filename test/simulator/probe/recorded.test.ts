import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchVenue, usd } from 'match-venue';
import { createSimulator, parseCassette, probeCassette, SEEDED } from 'match-venue/simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { edited, type Line, only } from './edit.js';
import { nextEvent } from './session.js';

// A session recorded by the client itself (`record`, MATCH_VENUE_RECORD): two clients, REST and a
// stream across one auction, against a simulator on a manual clock. The recorder stamps lines with
// the wall clock, so Date is made to follow the simulator's clock (timers stay real): the cassette
// then reads as a session on a venue whose clock is the recorded one, which is what the probe
// replays. Probed against an unchanged simulator it is alike; one departure injected is reported.

const START = Date.parse('2026-01-01T00:00:00.000Z');
let dir: string;
let cassette: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'probe-recorded-'));
  const file = join(dir, 'session.ndjson');
  vi.useFakeTimers({ toFake: ['Date'], now: START });
  const sim = createSimulator({ clock: 'manual', startTime: START });
  const step = (ms: number) => {
    sim.advance(ms);
    vi.setSystemTime(sim.now());
  };
  try {
    const { url } = await sim.listen();
    const burner = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: url, record: file });
    const minter = new MatchVenue({ apiKey: SEEDED.minter.apiKey, baseUrl: url, record: file });
    step(100);
    await burner.account.retrieve();
    const stream = burner.stream.connect();
    const market = stream.market()[Symbol.asyncIterator]();
    const account = stream.account();
    await nextEvent(market, 'auction.snapshot');
    await account.ready;
    const accountEvents = account[Symbol.asyncIterator]();
    step(800);
    const placed = await burner.orders.place({
      orderType: 'BURN',
      amount: usd('1000'),
      feeBps: '5',
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    await nextEvent(accountEvents, 'balance.updated');
    step(500);
    await minter.orders.place({
      orderType: 'MINT',
      amount: usd('1000'),
      feeBps: '2',
      postFillAction: 'cancel',
    });
    step(500);
    await burner.orders.modify({ auctionId: placed.auctionId, orderId: placed.orderId, feeBps: '4' });
    await burner.orders.retrieve(placed.orderId).catch(() => undefined);
    await burner.orders.retrieve('00000000-0000-4000-8000-0000000000ff').catch(() => undefined); // a 404
    // Past the lock (8 s), the clear (10 s) and the settlement (11 s).
    step(10_500);
    await nextEvent(market, 'auction.settled');
    await nextEvent(accountEvents, 'balance.updated');
    await burner.orders.list({ pageSize: 10 });
    step(500);
    await stream.close();
  } finally {
    vi.useRealTimers();
    await sim.close();
  }
  cassette = readFileSync(file, 'utf8');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const probe = (text: string) => probeCassette(parseCassette(text, 'session.ndjson'));

describe('probe: a session the client recorded', () => {
  it('holds REST and stream lines, and reports nothing against an unchanged simulator', async () => {
    const doc = parseCassette(cassette);
    expect(doc.entries.filter((e) => e.kind === 'http').length).toBeGreaterThanOrEqual(8);
    expect(doc.entries.filter((e) => e.kind === 'ws' && e.event === 'receive').length).toBeGreaterThan(10);
    const report = await probe(cassette);
    expect(report.differences).toEqual([]);
    expect(report).toMatchObject({ alike: true, notes: [], startTime: '2026-01-01T00:00:00.000Z' });
    expect(report.exchanges).toBeGreaterThanOrEqual(8);
    expect(report.events).toBeGreaterThanOrEqual(10);
  });

  it('reports a departure injected into it: the 404 answered otherwise', async () => {
    const text = edited(cassette, (lines) => {
      const i = only(lines, (l: Line) => l.kind === 'http' && l.response?.status === 404, 'the 404');
      (lines[i] as Line).response.status = 400;
      (lines[i] as Line).response.body.code = 2;
    });
    const report = await probe(text);
    expect(report.differences.map((d) => `${d.where} ${d.kind} ${d.recorded} ${d.simulated}`)).toEqual([
      'GET /v1/match/orders/00000000-0000-4000-8000-0000000000ff status 400 404',
      'GET /v1/match/orders/00000000-0000-4000-8000-0000000000ff code 2 156003',
    ]);
  });
});
