/**
 * Issue 36 point 4: the dashboard's shortened ids (src/simulator/ui/assets/short-ids.js, a browser
 * module with no DOM use in shortIds, so it runs here as it is served). Two different ids never
 * read the same, however much they share.
 */
import { participantOrderId } from '../../../src/simulator/engine/market-order-ids.js';
import { describe, expect, it } from 'vitest';

const { shortIds } = (await import(
  new URL('../../../src/simulator/ui/assets/short-ids.js', import.meta.url).href
)) as { shortIds: (ids: (string | null | undefined)[]) => Map<string, string> };

/** The texts of `ids` are pairwise different, each a prefix of its id, at least 8 characters. */
function expectDistinct(ids: string[]) {
  const short = shortIds(ids);
  const distinct = new Set(ids);
  expect(short.size).toBe(distinct.size);
  expect(new Set(short.values()).size).toBe(distinct.size);
  for (const [id, text] of short) {
    expect(id.startsWith(text)).toBe(true);
    expect(text.length).toBeGreaterThanOrEqual(Math.min(8, id.length));
  }
  return short;
}

describe('shortIds', () => {
  it("keeps a random UUID to 8 characters, and tells one auction's market orders apart", () => {
    const user = '3f2c9a1e-7b41-4c2d-9e0f-1a2b3c4d5e6f';
    const market = Array.from({ length: 200 }, (_, p) =>
      [0, 1, 2].map((k) => participantOrderId(3, p + 1, k)),
    ).flat();
    const short = expectDistinct([user, ...market, user]);
    expect(short.get(user)).toBe('3f2c9a1e');
    // Every market id of auction 3 starts 00000003: a cut at 8 would have read the same 600 times.
    expect(short.get(participantOrderId(3, 1, 0))).toBe('00000003-0000-4001-a000');
    expect(short.get(participantOrderId(3, 1, 0))).not.toBe(short.get(participantOrderId(3, 1, 1)));
  });

  it('stays distinct for ids that share long prefixes or are prefixes of each other', () => {
    expectDistinct(['aaaaaaaaaaaa', 'aaaaaaaaaaab', 'aaaaaaaaa', 'aaaaaaaa', 'b', 'aaaaaaaaaaaa']);
    const random = Array.from(
      { length: 2_000 },
      (_, i) => `${((i * 2654435761) >>> 0).toString(16).padStart(8, '0').slice(0, 3)}${crypto.randomUUID()}`,
    );
    expectDistinct(random);
  });

  it('leaves out missing ids', () => {
    expect([...shortIds([null, undefined, '', 'abcdefghij']).entries()]).toEqual([
      ['abcdefghij', 'abcdefgh'],
    ]);
  });
});
