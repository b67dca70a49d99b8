import { describe, expect, it } from 'vitest';
import { asciiHashes, hashes, IdFilter } from '../../../src/simulator/store/id-filter.js';

// Deterministic UUID-shaped ids: n-th id of a stream (no randomness in a test).
const id = (stream: number, n: number) =>
  `${stream.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

describe('IdFilter', () => {
  it('never says no to an id it was given, and says maybe to few others even when full', () => {
    const f = new IdFilter();
    expect(f.mightHave(id(1, 0))).toBe(false);
    // A full first segment: 2^25 bits at 24 bits an id.
    const full = 2 ** 25 / 24;
    for (let n = 0; n < full; n++) f.add(id(1, n), 1 + Math.floor(n / 100_000));
    let missed = 0;
    for (let n = 0; n < full; n++) if (!f.mightHave(id(1, n))) missed++;
    expect(missed).toBe(0);
    let maybes = 0;
    for (let n = 0; n < 200_000; n++) if (f.mightHave(id(2, n))) maybes++;
    // About 0.001% of others for a full segment (2 of 200,000): far under 0.01%.
    expect(maybes).toBeLessThan(20);
  });

  it('names the evictions of the segments that may hold an id, newest first', () => {
    const f = new IdFilter();
    const full = 2 ** 25 / 24;
    // Eviction 1 fills the first segment; eviction 2 starts the second; eviction 3 joins it.
    for (let n = 0; n < full; n++) f.add(id(1, n), 1);
    f.add(id(3, 0), 2);
    f.add(id(3, 1), 3);
    expect(f.evictionsOf(id(1, 5))).toEqual([{ first: 1, last: 1 }]);
    expect(f.evictionsOf(id(3, 1))).toEqual([{ first: 2, last: 3 }]);
    // Segments of 4 MiB each: a checkpoint saves the last one whole.
    expect(f.changed().map((s) => s.bits.byteLength)).toEqual([2 ** 22, 2 ** 22]);
  });

  it('starts a segment every 1,024 evictions however few ids they hold', () => {
    const f = new IdFilter();
    for (let e = 1; e <= 2050; e++) f.add(id(4, e), e);
    expect(f.evictionsOf(id(4, 1))).toEqual([{ first: 1, last: 1024 }]);
    expect(f.evictionsOf(id(4, 1025))).toEqual([{ first: 1025, last: 2048 }]);
    expect(f.evictionsOf(id(4, 2050))).toEqual([{ first: 2049, last: 2050 }]);
  });

  it('saves its segments and loads them back: the same answers, and only what changed is saved again', () => {
    const f = new IdFilter();
    for (let n = 0; n < 1000; n++) f.add(id(1, n), 1);
    const first = f.changed();
    expect(first.map((s) => [s.index, s.first, s.last, s.ids])).toEqual([[0, 1, 1, 1000]]);
    for (let n = 1000; n < 2000; n++) f.add(id(1, n), 2);
    // The last segment may still fill: it is saved again, with its new bits.
    const second = f.changed();
    expect(second.map((s) => [s.index, s.first, s.last, s.ids])).toEqual([[0, 1, 2, 2000]]);
    const g = IdFilter.load(second);
    for (let n = 0; n < 2000; n++) expect(g.evictionsOf(id(1, n))).toEqual([{ first: 1, last: 2 }]);
    let maybes = 0;
    for (let n = 0; n < 10_000; n++) if (g.mightHave(id(2, n)) !== f.mightHave(id(2, n))) maybes++;
    expect(maybes).toBe(0);
  });

  it('hashes an ASCII id from its UTF-8 bytes exactly as from its string, and declines any other', () => {
    const ascii = ['', 'a', 'order-1', id(7, 123), `${'x'.repeat(300)}~\u007f`];
    for (let n = 0; n < 2000; n++) ascii.push(id(5, n * 7919));
    for (const s of ascii) {
      const bytes = Buffer.from(`..${s}..`);
      expect([...(asciiHashes(bytes, 2, 2 + s.length) ?? [])]).toEqual([...hashes(s)]);
    }
    for (const s of ['élan', 'a\u0080', '😀']) {
      const bytes = Buffer.from(s);
      expect(asciiHashes(bytes, 0, bytes.length)).toBeUndefined();
    }
  });
});
