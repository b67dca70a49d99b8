import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchStoreReads } from '../../../bench/store-reads.js';

const dir = mkdtempSync(join(tmpdir(), 'match-venue-store-reads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The read bench's smoke run: that its reads still reach evicted orders (it throws when a hit is
// not found, a fresh id is, or a listing is empty). Its timings are never asserted (a shared machine).
describe('bench/store-reads.ts smoke', () => {
  it('finds evicted orders by id and listing after 20 stored auctions', () => {
    const r = benchStoreReads({ auctions: 20, store: join(dir, 'reads.db') });
    expect(r.auctions).toBe(20);
    expect(r.getHitMs.n).toBeGreaterThan(100);
    expect(r.getMissMs.n).toBe(200);
    expect(r.firstPageMs.n).toBe(6);
    expect(r.accountMs.n).toBe(6);
  });
});
