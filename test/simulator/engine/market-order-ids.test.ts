import { describe, expect, it } from 'vitest';
import { isUuid } from '../../../src/contract/ids.js';
import {
  idMiddle,
  idPrefix,
  idTail,
  marketIdAuction,
  marketIdFrom,
  participantOrderId,
} from '../../../src/simulator/engine/market-order-ids.js';

describe('participant order ids', () => {
  it('are the auction, the participant and the rank in hex, shaped as UUID v4, ending in "market"', () => {
    expect(participantOrderId(1, 1, 0)).toBe('00000001-0000-4001-a000-6d61726b6574');
    expect(participantOrderId(8_640, 1_000, 17)).toBe('000021c0-0000-43e8-a011-6d61726b6574');
    // Participant numbers above 0xfff carry into the second group; ranks wrap at 0x1000.
    expect(participantOrderId(0xffffffff, 0x1234567, 0x1001)).toBe('ffffffff-1234-4567-a001-6d61726b6574');
    expect(isUuid(participantOrderId(2, 4_096, 4_095))).toBe(true);
  });

  it('the parts the population keeps: the auction, the participant, the rank from a table that wraps', () => {
    expect(idPrefix(300)).toBe('0000012c');
    expect(idMiddle(0x12345)).toBe('-0012-4345-a');
    expect(idTail(3)).toBe('003-6d61726b6574');
    expect(idTail(4_099)).toBe('003-6d61726b6574');
    expect(idTail(4_095)).toBe('fff-6d61726b6574');
  });

  it('name their auction; other ids (a roll child, a bot key) name none', () => {
    expect(marketIdAuction(participantOrderId(8_640, 1_000, 17))).toBe(8_640);
    expect(marketIdAuction(participantOrderId(0xffffffff, 7, 0))).toBe(0xffffffff);
    expect(marketIdAuction('000021c0-0000-43e8-8011-6d61726b6574')).toBeUndefined(); // variant 8, not a
    expect(marketIdAuction('000021c0-0000-53e8-a011-6d61726b6574')).toBeUndefined(); // version 5
    expect(marketIdAuction('000021C0-0000-43e8-a011-6d61726b6574')).toBeUndefined(); // upper case
    expect(marketIdAuction('x000021c0-0000-43e8-a011-6d61726b6574')).toBeUndefined();
    expect(marketIdAuction('00000000-0000-4000-8000-000000000001')).toBeUndefined();
  });

  it('tell the ids the market may still make: of this auction or a later one', () => {
    const id = participantOrderId(300, 5, 0);
    expect([299, 300, 301].map((a) => marketIdFrom(id, a))).toEqual([true, true, false]);
    // The tail alone is not enough: the pattern is matched too.
    expect(marketIdFrom('0000012c-0000-53e8-a011-6d61726b6574', 1)).toBe(false);
    expect(marketIdFrom('0000012g-0000-43e8-a011-6d61726b6574', 1)).toBe(false);
  });

  it('read by hand exactly as the pattern reads them, on ids one character off', () => {
    const pattern = /^([0-9a-f]{8})-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-6d61726b6574$/;
    const byPattern = (id: string) => {
      const m = pattern.exec(id);
      return m ? Number.parseInt(m[1] as string, 16) : undefined;
    };
    const base = participantOrderId(0x1a2b3c4d, 0x5e6f, 0x789);
    const chars = ['0', '9', 'a', 'f', 'g', 'A', 'F', '-', '4', '8', ' ', 'é'];
    let checked = 0;
    for (let i = 0; i < base.length; i++)
      for (const c of chars) {
        const id = base.slice(0, i) + c + base.slice(i + 1);
        expect(marketIdAuction(id)).toBe(byPattern(id));
        checked++;
      }
    for (const id of [base, `${base}0`, base.slice(1), `0${base}`, base.toUpperCase(), ''])
      expect(marketIdAuction(id)).toBe(byPattern(id));
    expect(checked).toBe(36 * chars.length);
  });
});
