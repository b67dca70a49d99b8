import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, type Simulator } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { UncheckedDriver } from '../helpers.js';

// A simulated week with a store (issue 20, point 6): listings with from/to anywhere in it answer
// as a simulator that keeps everything, across hundreds of the index's merges (store-file.ts),
// and again after the file is opened anew.
const START = Date.parse('2026-01-05T00:00:00Z');
const DAY = 86_400_000;
const OPTIONS = {
  startTime: START,
  seed: 11,
  market: { preset: 'calm', noise: { count: 2 }, liquidity: { count: 1 } },
} as const;
const KEYS = ['TEST_API_KEY:noise-0001:sim', 'TEST_API_KEY:lp-01:sim'];
const dir = mkdtempSync(join(tmpdir(), 'match-venue-week-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A week in steps of 10 minutes (each step evicts at its end: docs/MARKET.md). */
function week(sim: Simulator): void {
  for (let at = 0; at < 7 * DAY; at += 600_000) sim.advance(600_000);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Windows over the week (whole, days, an hour, minutes across a merge), pages near both ends. */
async function listings(sim: Simulator) {
  const d = new UncheckedDriver(sim);
  const windows = [
    [0, 7 * DAY],
    [DAY, 2 * DAY],
    [3 * DAY + 3_600_000, 3 * DAY + 7_200_000],
    [6 * DAY + 590_000, 6 * DAY + 1_210_000],
    [7 * DAY - 300_000, 7 * DAY + 10_000],
  ];
  const out: unknown[] = [];
  for (const key of KEYS)
    for (const [a, b] of windows) {
      const q = `from=${iso(START + (a as number))}&to=${iso(START + (b as number))}&pageSize=100`;
      const first = await d.call('GET', `/v1/match/orders?${q}&page=1`, key);
      expect(first.status).toBe(200);
      const total = (first.body as { data: { pagination: { total: number } } }).data.pagination.total;
      const last = await d.call(
        'GET',
        `/v1/match/orders?${q}&page=${Math.max(1, Math.ceil(total / 100))}`,
        key,
      );
      const middle = await d.call('GET', `/v1/match/orders?${q}&status=filled&page=2`, key);
      out.push(total, first.body, last.body, middle.body);
    }
  return out;
}

describe('store: a simulated week', () => {
  it('lists any window of the week as a simulator that keeps everything, before and after reopening', async () => {
    const file = join(dir, 'week.db');
    const plain = createSimulator(OPTIONS);
    const stored = createSimulator({ ...OPTIONS, store: file });
    week(plain);
    week(stored);
    // Nearly everything left memory; the whole-week listing still counts it all.
    expect(stored.engine.state.orders.size).toBeLessThan(plain.engine.state.orders.size / 100);
    const want = await listings(plain);
    expect(want[0]).toBeGreaterThan(10_000);
    expect(await listings(stored)).toEqual(want);
    await stored.close();
    const reopened = createSimulator({ store: file });
    expect(reopened.now()).toBe(plain.now());
    expect(await listings(reopened)).toEqual(want);
    await Promise.all([reopened.close(), plain.close()]);
  }, 120_000);
});
