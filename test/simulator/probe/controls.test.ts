import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { usd } from 'match-venue';
import { parseCassette, probeCassette, SEEDED } from 'match-venue/simulator';
import { createMockVenue } from 'match-venue/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edited, isEvent } from './edit.js';
import { nextEvent } from './session.js';

// A session recorded in mock mode, whose auctions are cleared by the simulator's controls
// (`clearAuction`): the cassette holds the market events those controls caused, never the controls,
// and its times are the wall clock's, a second or so in all. The probe follows the recorded clears
// and settlements where its clock lags them, so an unchanged simulator is alike.

let dir: string;
let text: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'probe-controls-'));
  const file = join(dir, 'session.ndjson');
  const mock = await createMockVenue();
  try {
    const burner = mock.client('burner', { record: file });
    const minter = mock.client('minter', { record: file });
    const stream = burner.stream.connect();
    const market = stream.market()[Symbol.asyncIterator]();
    await nextEvent(market, 'auction.snapshot');
    for (let round = 0; round < 3; round++) {
      const placed = await burner.orders.place({
        orderType: 'BURN',
        amount: usd('1000'),
        feeBps: '5',
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      });
      await minter.orders.place({
        orderType: 'MINT',
        amount: usd('1000'),
        feeBps: '2',
        postFillAction: 'cancel',
      });
      mock.clearAuction();
      await nextEvent(market, 'auction.settled');
      await burner.orders.retrieve(placed.orderId);
      await burner.account.retrieve();
    }
    await stream.close();
  } finally {
    await mock.close();
  }
  text = readFileSync(file, 'utf8');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('probe: a session whose auctions were cleared by the simulator controls', () => {
  it('is alike: the recorded clears and settlements are followed where the clock lags them', async () => {
    const report = await probeCassette(parseCassette(text));
    expect(report.differences).toEqual([]);
    expect(report.alike).toBe(true);
    expect(report.exchanges).toBeGreaterThanOrEqual(12);
    expect(report.events).toBeGreaterThanOrEqual(12);
    expect(report.notes).toContain(
      "3 clears and 3 settlements made when the recording's market events showed them before the clock reached them (a venue whose time did not run as the wall clock's: a simulator moved by its controls)",
    );
  });

  it('still reports a departure: an order recorded filled that the simulator leaves unfilled', async () => {
    // The recorded retrieve of round 1 shows a fill; drop the clears that made it, and it is null here.
    const moved = (l: Parameters<ReturnType<typeof isEvent>>[0]) =>
      isEvent('auction.cleared')(l) || isEvent('auction.settled')(l);
    const without = edited(text, (lines) => lines.splice(0, lines.length, ...lines.filter((l) => !moved(l))));
    const report = await probeCassette(parseCassette(without));
    expect(report.alike).toBe(false);
    expect(report.differences.some((d) => d.path === 'data.fill' && d.kind === 'type')).toBe(true);
  });
});
