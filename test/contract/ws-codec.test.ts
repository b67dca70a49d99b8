import { describe, expect, it } from 'vitest';
import { decodeSocketData, encodeSocketData } from '../../src/contract/ws-codec.js';

describe('socket money codec', () => {
  const order = {
    orderId: 'o',
    amount: { amount: '1000.50', currency: 'USD' },
    fill: { filledAmount: { amount: '0.07', currency: 'USD' }, clearingFeeBps: '5.00' },
    list: [{ amount: '12.00', currency: 'USD' }],
    feeBps: '5',
  };

  it('keeps REST Money objects as they are by default (the simulator wire)', () => {
    expect(encodeSocketData(order)).toBe(order);
    expect(decodeSocketData(order)).toBe(order);
  });

  it('integer cents: encodes every Money to cents and decodes back exactly', () => {
    const wire = encodeSocketData(order, 'integer-cents');
    expect(wire).toEqual({
      orderId: 'o',
      amount: { amount: 100050, currency: 'USD' },
      fill: { filledAmount: { amount: 7, currency: 'USD' }, clearingFeeBps: '5.00' },
      list: [{ amount: 1200, currency: 'USD' }],
      feeBps: '5',
    });
    expect(decodeSocketData(wire, 'integer-cents')).toEqual(order);
  });

  it('refuses to encode sub-cent amounts', () => {
    expect(() => encodeSocketData({ amount: '1.005', currency: 'USD' }, 'integer-cents')).toThrow(RangeError);
  });
});
