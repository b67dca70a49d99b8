import { describe, expect, it } from 'vitest';
import { isUuid } from '../../../src/contract/ids.js';
import { idMiddle, idPrefix, idTail, participantOrderId } from '../../../src/simulator/market/order-ids.js';

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
});
