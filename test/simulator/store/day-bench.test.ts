import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchDay } from '../../../bench/day.js';

const dir = mkdtempSync(join(tmpdir(), 'match-venue-day-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The day bench's smoke run: that it still runs and that a store changes no order the market
// places. Its timings are printed by bench/run.ts, never asserted (a shared machine).
describe('bench/day.ts smoke', () => {
  it('runs 3 auctions of 1,000 participants, the same orders with and without a store', () => {
    const plain = benchDay({ auctions: 3 });
    const stored = benchDay({ auctions: 3, store: join(dir, 'day.db') });
    expect(plain.participants).toBe(1000);
    expect(plain.auctions).toBe(3);
    expect(plain.store).toBe(false);
    expect(stored.store).toBe(true);
    expect(plain.orders).toBeGreaterThan(1000);
    expect(stored.orders).toBe(plain.orders);
    expect(stored.storeMb).not.toBeNull();
  });
});
