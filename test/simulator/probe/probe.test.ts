import { parseCassette, probeCassette, type ProbeReport, SEEDED } from 'match-venue/simulator';
import { beforeAll, describe, expect, it } from 'vitest';
import { edited, isEvent, isHttp, type Line, only } from './edit.js';
import { recordSession } from './session.js';

// The probe against a session recorded on the simulator (test/simulator/probe/session.ts, written in
// the contract's line shapes): unchanged, it reports nothing; each departure injected into the
// recording is reported once, with its kind and where.

let cassette: string;
beforeAll(async () => {
  cassette = await recordSession();
});

const probe = (text: string, options: Parameters<typeof probeCassette>[1] = {}) =>
  probeCassette(parseCassette(text, 'session.ndjson'), options);

/** The differences without their values, to compare whole. */
const kinds = (report: ProbeReport) =>
  report.differences.map(({ where, kind, path }) => ({ where, kind, path }));

const account = isHttp('GET', '/v1/match/account');
const refused = (l: Line) => l.kind === 'http' && l.response?.status === 400;

describe('probeCassette', () => {
  it('reports nothing for the same session against an unchanged simulator', async () => {
    const report = await probe(cassette);
    expect(report.differences).toEqual([]);
    expect(report).toMatchObject({ alike: true, exchanges: 9, events: 11, ignored: 0, notes: [] });
    expect(report.startTime).toBe('2026-01-01T00:00:00.000Z');
    expect(report.keys).toEqual([
      { keyId: 'burner', entity: 'burner', how: 'named' },
      { keyId: 'minter', entity: 'minter', how: 'named' },
    ]);
  });

  const injected: [string, (lines: Line[]) => void, { where: string; kind: string; path: string }[]][] = [
    [
      'a changed status',
      (lines) => {
        (lines[only(lines, account, 'account')] as Line).response.status = 201;
      },
      [{ where: 'GET /v1/match/account', kind: 'status', path: 'status' }],
    ],
    [
      'a changed venue code',
      (lines) => {
        (lines[only(lines, refused, 'refusal')] as Line).response.body.code = 137003;
      },
      [{ where: 'POST /v1/match/orders', kind: 'code', path: 'code' }],
    ],
    [
      'a field the simulator does not send (missing)',
      (lines) => {
        (lines[only(lines, account, 'account')] as Line).response.body.data.venueTier = 'gold';
      },
      [{ where: 'GET /v1/match/account', kind: 'missing', path: 'data.venueTier' }],
    ],
    [
      'a field the recording lacks (extra)',
      (lines) => {
        delete (lines[only(lines, account, 'account')] as Line).response.body.data.exposure;
      },
      [{ where: 'GET /v1/match/account', kind: 'extra', path: 'data.exposure' }],
    ],
    [
      'a field of another type',
      (lines) => {
        (lines[only(lines, account, 'account')] as Line).response.body.data.stablecoin.available = 100000000;
      },
      [{ where: 'GET /v1/match/account', kind: 'type', path: 'data.stablecoin.available' }],
    ],
    [
      'a reordered pair of events',
      (lines) => {
        const [a, b] = [
          only(lines, isEvent('order.accepted'), 'accepted'),
          only(lines, isEvent('balance.updated', 2), 'balance'),
        ];
        const frame = (lines[a] as Line).frame;
        (lines[a] as Line).frame = (lines[b] as Line).frame;
        (lines[b] as Line).frame = frame;
      },
      // One row for the pair: the event the alignment leaves out, at its place on each side.
      [{ where: 'ws 1 (burner)', kind: 'order', path: 'events.account.balance.updated' }],
    ],
    [
      'an event the simulator does not send (missing)',
      (lines) => {
        const i = only(lines, isEvent('auction.locked'), 'locked');
        lines.splice(i + 1, 0, {
          ...(lines[i] as Line),
          frame: { ...(lines[i] as Line).frame, event: 'auction.paused' },
        });
      },
      [{ where: 'ws 1 (burner)', kind: 'missing', path: 'events.market.auction.paused' }],
    ],
    [
      'an event the recording lacks (extra)',
      (lines) => {
        lines.splice(only(lines, isEvent('auction.settled'), 'settled'), 1);
      },
      [{ where: 'ws 1 (burner)', kind: 'extra', path: 'events.market.auction.settled' }],
    ],
  ];

  it.each(injected)('reports %s once, with its kind', async (_what, change, expected) => {
    const report = await probe(edited(cassette, change));
    expect(kinds(report)).toEqual(expected);
    expect(report.alike).toBe(false);
  });

  it('reports six departures injected together, one row each, with their values', async () => {
    const text = edited(cassette, (lines) => {
      for (const inject of injected.slice(0, 6).map(([, change]) => change)) inject(lines);
    });
    const report = await probe(text);
    expect(report.differences.map((d) => d.kind).sort()).toEqual([
      'code',
      'extra',
      'missing',
      'order',
      'status',
      'type',
    ]);
    const row = report.differences.find((d) => d.kind === 'status');
    expect(row).toMatchObject({ line: 2, recorded: '201', simulated: '200' });
    expect(report.differences.find((d) => d.kind === 'code')).toMatchObject({
      recorded: '137003',
      simulated: '137002',
    });
    expect(report.differences.find((d) => d.kind === 'type')).toMatchObject({
      recorded: 'number',
      simulated: 'object',
    });
    expect(report.differences.find((d) => d.kind === 'order')).toMatchObject({
      recorded: '#2',
      simulated: '#3',
    });
  });

  it('--ignore silences a path and its subtree, with * for one segment and ** for any', async () => {
    const text = edited(cassette, (lines) => {
      const body = (lines[only(lines, account, 'account')] as Line).response.body.data;
      body.stablecoin.available = 1;
      body.venueTier = 'gold';
    });
    expect(kinds(await probe(text))).toHaveLength(2);
    for (const ignore of [
      ['data.stablecoin', 'data.venueTier'],
      ['*.stablecoin.available', '*.venueTier'],
      ['**.available', '**.venueTier'],
    ]) {
      const report = await probe(text, { ignore });
      expect(report).toMatchObject({ alike: true, differences: [], ignored: 2 });
    }
    const partial = await probe(text, { ignore: ['data.stablecoin.reserved', 'data.venue'] });
    expect(partial.differences).toHaveLength(2);
  });

  it('maps a recording of another venue: its key ids, its auction ids, its wallet and bank ids', async () => {
    // As a real sandbox would have recorded the session: its own key ids, auction 7, its own ids.
    const foreign = edited(cassette, (lines) => {
      for (const l of lines) {
        if (l.keyId === 'burner') l.keyId = 'k-9f2c';
        if (l.keyId === 'minter') l.keyId = 'k-51aa';
      }
      const text = JSON.stringify(lines)
        .replaceAll('"auctionId":1', '"auctionId":7')
        .replaceAll('10000000-0000-4000-8000-00000000a001', 'wallet-sandbox-1')
        .replaceAll('10000000-0000-4000-8000-00000000f001', 'bank-sandbox-1');
      lines.splice(0, lines.length, ...(JSON.parse(text) as Line[]));
    });
    const report = await probe(foreign);
    expect(report.differences).toEqual([]);
    expect(report.keys).toEqual([
      { keyId: 'k-9f2c', entity: 'burner', how: 'in turn' },
      { keyId: 'k-51aa', entity: 'minter', how: 'in turn' },
    ]);
    expect(report.ids).toEqual(
      expect.arrayContaining([
        { recorded: '7', simulated: '1' },
        { recorded: 'wallet-sandbox-1', simulated: '10000000-0000-4000-8000-00000000a001' },
        { recorded: 'bank-sandbox-1', simulated: '10000000-0000-4000-8000-00000000f001' },
      ]),
    );
    // `as` chooses: the first key as the minter, so the BURN from the burner's wallet is refused.
    const swapped = await probe(foreign, { as: { 'k-9f2c': 'minter', 'k-51aa': 'burner' } });
    expect(swapped.keys.map((k) => `${k.keyId}=${k.entity} ${k.how}`)).toEqual([
      'k-9f2c=minter as',
      'k-51aa=burner as',
    ]);
    expect(swapped.alike).toBe(false);
  });

  it("gives a key id naming a scenario's entity that entity, its wallet and bank sent for the recorded", async () => {
    // The session as the scenario's `quoter` would have recorded it on a sandbox: its own ids there.
    const text = edited(cassette, (lines) => {
      // The EUR wallet refusal has no counterpart: a scenario's entity holds a USD wallet only.
      lines.splice(only(lines, refused, 'refusal'), 1);
      for (const l of lines) if (l.keyId === 'burner') l.keyId = 'quoter';
      const sandbox = JSON.stringify(lines)
        .replaceAll(SEEDED.burner.walletId, 'quoter-wallet')
        .replaceAll(SEEDED.burner.fiatAccountId, 'quoter-bank')
        .replaceAll(SEEDED.burner.accountId, 'quoter-account');
      lines.splice(0, lines.length, ...(JSON.parse(sandbox) as Line[]));
    });
    const report = await probe(text, {
      scenario: { version: 1, entities: { quoter: { wallet: '5000.00' } } },
    });
    expect(report.differences).toEqual([]);
    expect(report.keys).toEqual([
      { keyId: 'quoter', entity: 'quoter', how: 'named' },
      { keyId: 'minter', entity: 'minter', how: 'named' },
    ]);
    // Sent as the scenario entity's ids (scenario/entities.ts numbers them).
    expect(report.ids).toEqual(
      expect.arrayContaining([
        { recorded: 'quoter-wallet', simulated: '60000001-0000-4000-8000-00000000a001' },
        { recorded: 'quoter-bank', simulated: '60000001-0000-4000-8000-00000000f001' },
        { recorded: 'quoter-account', simulated: '60000001-0000-4000-8000-0000000000ac' },
      ]),
    );
  });

  it("sends a wallet the simulator knows as recorded, another entity's included", async () => {
    // The burner placing from the minter's wallet: refused here (137002) as it was when recorded.
    const text = edited(cassette, (lines) => {
      const line = lines[only(lines, refused, 'refusal')] as Line;
      line.request.body.sourceWalletId = SEEDED.minter.walletId;
    });
    const report = await probe(text);
    expect(report.differences).toEqual([]);
    expect(report.ids).toEqual([]);
  });

  it('sends an attempt recorded without a response but does not compare it, and says so', async () => {
    const text = edited(cassette, (lines) => {
      const l = lines[only(lines, account, 'account')] as Line;
      l.response = null;
      l.error = 'timeout after 10000 ms';
    });
    const report = await probe(text);
    expect(report).toMatchObject({ alike: true, exchanges: 8 });
    expect(report.notes).toEqual([
      'line 2: GET /v1/match/account sent, not compared: no response was recorded (timeout after 10000 ms)',
    ]);
  });
});
