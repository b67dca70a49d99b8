// The contract's one decimal-hundredths parser and formatter (src/contract/money.ts), which replaced
// four copies: the engine's cents and centi-bps, the socket codec's cents and the client's fee
// comparison. Each case below is an edge one of those copies handled.
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatHundredths, isHundredthsText, parseHundredths } from '../../src/contract/money.js';

describe('parseHundredths', () => {
  it('reads 0, 1 or 2 decimals as whole hundredths', () => {
    expect(parseHundredths('7')).toBe(700);
    expect(parseHundredths('7.5')).toBe(750);
    expect(parseHundredths('7.05')).toBe(705);
    expect(parseHundredths('1000.50')).toBe(100050);
    expect(parseHundredths('0')).toBe(0);
    expect(parseHundredths('0.01')).toBe(1);
  });

  it('reads leading zeros as the same number (the client compares fee "05" with "5.00")', () => {
    expect(parseHundredths('007.5')).toBe(750);
    expect(parseHundredths('05')).toBe(parseHundredths('5.00'));
    expect(parseHundredths('5.0')).toBe(500);
    // However many: the value decides, not the length of the text.
    expect(parseHundredths(`${'0'.repeat(30)}1.00`)).toBe(100);
  });

  it('refuses what is not a decimal string with at most 2 decimals', () => {
    for (const bad of [
      '',
      '1.',
      '.5',
      '1.234',
      '1e3',
      ' 1',
      '1 ',
      '0x10',
      '1,00',
      '+1',
      '--1',
      'NaN',
      'Infinity',
      '1_000',
    ])
      expect(parseHundredths(bad), bad).toBeUndefined();
  });

  it("takes a leading minus only when signed (the engine's balances), and -0 is 0", () => {
    expect(parseHundredths('-0.01')).toBeUndefined();
    expect(parseHundredths('-1', 'unsigned')).toBeUndefined();
    expect(parseHundredths('-0.01', 'signed')).toBe(-1);
    expect(parseHundredths('-12.5', 'signed')).toBe(-1250);
    expect(Object.is(parseHundredths('-0', 'signed'), 0)).toBe(true);
    expect(Object.is(parseHundredths('-0.00', 'signed'), 0)).toBe(true);
    expect(parseHundredths('-', 'signed')).toBeUndefined();
  });

  it('reads every value up to Number.MAX_SAFE_INTEGER hundredths exactly and refuses the next one', () => {
    expect(parseHundredths('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseHundredths('-90071992547409.91', 'signed')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(parseHundredths('90071992547409.92')).toBeUndefined();
    expect(parseHundredths('90071992547410')).toBeUndefined();
    expect(parseHundredths('99999999999999999')).toBeUndefined();
    expect(parseHundredths('9'.repeat(400))).toBeUndefined();
  });

  it('refuses non-strings, numbers included (no coercion of 10.5 into "10.5")', () => {
    for (const bad of [10.5, 100, 0, null, undefined, true, { amount: '1.00' }, ['1'], 10n])
      expect(parseHundredths(bad), String(bad)).toBeUndefined();
  });
});

describe('isHundredthsText', () => {
  it('tells a well-formed amount too large for exact hundredths from one that is no amount', () => {
    expect(isHundredthsText('99999999999999999.99')).toBe(true);
    expect(parseHundredths('99999999999999999.99')).toBeUndefined();
    expect(isHundredthsText('1.234')).toBe(false);
    expect(isHundredthsText('1e3')).toBe(false);
    expect(isHundredthsText('-1')).toBe(false);
    expect(isHundredthsText('-1', 'signed')).toBe(true);
    expect(isHundredthsText(1)).toBe(false);
  });
});

describe('formatHundredths', () => {
  it('writes two decimals, with a minus for negatives', () => {
    expect(formatHundredths(0)).toBe('0.00');
    expect(formatHundredths(5)).toBe('0.05');
    expect(formatHundredths(50)).toBe('0.50');
    expect(formatHundredths(100050)).toBe('1000.50');
    expect(formatHundredths(-5)).toBe('-0.05');
    expect(formatHundredths(-0)).toBe('0.00');
    expect(formatHundredths(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });

  it('agrees with decimal.js, and parse gives back every safe integer, signed or not', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const text = formatHundredths(n);
        expect(text).toBe(new Decimal(n).div(100).toFixed(2));
        expect(parseHundredths(text, 'signed')).toBe(n);
        expect(parseHundredths(text)).toBe(n < 0 ? undefined : n);
      }),
    );
  });
});
