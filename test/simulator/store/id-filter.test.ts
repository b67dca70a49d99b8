import { describe, expect, it } from 'vitest';
import { IdFilter } from '../../../src/simulator/store/id-filter.js';

// Deterministic UUID-shaped ids: n-th id of a stream (no randomness in a test).
const id = (stream: number, n: number) =>
  `${stream.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

describe('IdFilter', () => {
  it('never says no to an id it was given, and says maybe to about 1% of others', () => {
    const f = new IdFilter();
    expect(f.mightHave(id(1, 0))).toBe(false);
    for (let n = 0; n < 200_000; n++) f.add(id(1, n), 1);
    let missed = 0;
    for (let n = 0; n < 200_000; n++) if (!f.mightHave(id(1, n))) missed++;
    expect(missed).toBe(0);
    let maybes = 0;
    for (let n = 0; n < 200_000; n++) if (f.mightHave(id(2, n))) maybes++;
    // 200,000 ids in a segment sized for 1.7 million.
    expect(maybes).toBeLessThan(200);
  });
});
