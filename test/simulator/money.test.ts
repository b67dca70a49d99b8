import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCents, parseCentiBps, parseCents } from '../../src/simulator/engine/money.js';

describe('engine money conversions', () => {
  it('parse and format agree with decimal.js for every safe amount', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (cents) => {
        const text = formatCents(cents);
        expect(text).toBe(new Decimal(cents).div(100).toFixed(2));
        expect(parseCents(text)).toBe(cents);
      }),
    );
  });

  it('rejects what is not a 2-decimal amount; fees are never negative', () => {
    for (const bad of ['', '1.', '.5', '1.234', '1e3', ' 1', '0x10', '1,00', '99999999999999999'])
      expect(parseCents(bad)).toBeUndefined();
    expect(parseCents('7')).toBe(700);
    expect(parseCents('7.5')).toBe(750);
    expect(parseCents('-0.01')).toBe(-1);
    expect(parseCentiBps('4.25')).toBe(425);
    expect(parseCentiBps('-1')).toBeUndefined();
  });
});
