import fc from 'fast-check';
import {
  addMoney,
  compareMoney,
  formatMoney,
  money,
  moneyEquals,
  parseMoney,
  sumMoney,
  usd,
  ValidationError,
} from 'match-venue';
import { fromCents, subMoney, toCents } from '../../src/core/money.js';
import { describe, expect, it } from 'vitest';

describe('money helpers', () => {
  it('usd() pads to two decimals', () => {
    expect(usd('1000')).toEqual({ amount: '1000.00', currency: 'USD' });
    expect(usd('0.5')).toEqual({ amount: '0.50', currency: 'USD' });
    expect(usd(250)).toEqual({ amount: '250.00', currency: 'USD' });
    expect(usd(123n)).toEqual({ amount: '123.00', currency: 'USD' });
    expect(money('12.3', 'EUR')).toEqual({ amount: '12.30', currency: 'EUR' });
  });

  it('rejects floats, unsafe integers and more than two decimals', () => {
    expect(() => usd(10.5)).toThrow(ValidationError);
    expect(() => usd(10.5)).toThrow(/floats are not money/);
    expect(() => usd(2 ** 53)).toThrow(ValidationError);
    expect(() => usd(Number.NaN)).toThrow(ValidationError);
    expect(() => usd('1.005')).toThrow(/at most 2 decimal places/);
    expect(() => usd('1e3')).toThrow(/decimal string/);
    expect(() => usd('')).toThrow(ValidationError);
    expect(() => money('1', 'usd')).toThrow(/ISO 4217/);
  });

  it('adds, subtracts, sums and compares exactly', () => {
    expect(addMoney(usd('0.10'), usd('0.20'))).toEqual(usd('0.30'));
    expect(subMoney(usd('1000'), usd('999.99'))).toEqual(usd('0.01'));
    expect(subMoney(usd('1'), usd('1'))).toEqual({ amount: '0.00', currency: 'USD' });
    expect(subMoney(usd('1'), usd('2.5'))).toEqual({ amount: '-1.50', currency: 'USD' });
    expect(sumMoney([usd('0.10'), usd('0.20'), usd('0.30')])).toEqual(usd('0.60'));
    expect(sumMoney([])).toEqual(usd('0'));
    expect(compareMoney(usd('100'), usd('100.00'))).toBe(0);
    expect(compareMoney(usd('99.99'), usd('100'))).toBe(-1);
    expect(compareMoney(usd('100.01'), usd('100'))).toBe(1);
    expect(moneyEquals(usd('5'), usd('5.00'))).toBe(true);
    expect(() => addMoney(usd('1'), money('1', 'EUR'))).toThrow(/cannot combine USD with EUR/);
  });

  it('converts to and from integer cents', () => {
    expect(toCents(usd('1234.56'))).toBe(123456n);
    expect(fromCents(123456n)).toEqual(usd('1234.56'));
    expect(fromCents(-5)).toEqual({ amount: '-0.05', currency: 'USD' });
    expect(parseMoney(usd('12.34')).toFixed(2)).toBe('12.34');
  });

  it('formats with grouping and without floats', () => {
    expect(formatMoney(usd('1234567.5'))).toBe('1,234,567.50 USD');
    expect(formatMoney(usd('-1000'))).toBe('-1,000.00 USD');
    expect(formatMoney(usd('999'), { currency: false })).toBe('999.00');
    expect(formatMoney(usd('9007199254740993.01'))).toBe('9,007,199,254,740,993.01 USD');
  });

  it('add/sub agree with bigint cents for any amounts', () => {
    const cents = fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n });
    fc.assert(
      fc.property(cents, cents, (a, b) => {
        const ma = fromCents(a);
        const mb = fromCents(b);
        expect(toCents(addMoney(ma, mb))).toBe(a + b);
        expect(toCents(subMoney(ma, mb))).toBe(a - b);
        expect(compareMoney(ma, mb)).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
    );
  });
});
