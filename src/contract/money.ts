/**
 * The venue's currency. Every Money the venue takes is USD: order amounts and withdrawals. The
 * OpenAPI states it (`OrderAmount.currency` and `WithdrawalAmount.currency` are `enum: [USD]`), so
 * the generated checks refuse another currency with "must be USD"; the simulator's engine, which
 * refuses an order's currency only after its eligibility check, uses this predicate and message.
 */
export const VENUE_CURRENCY = 'USD';

/** The rule's message, as both sides report it for `amount.currency`. */
export const VENUE_CURRENCY_RULE = 'must be USD';

export function isVenueCurrency(currency: unknown): boolean {
  return currency === VENUE_CURRENCY;
}

// Decimal strings with at most two decimals, as whole hundredths: money in cents, fees in
// hundredths of a basis point. The one parser and formatter of the SDK and the simulator (the
// engine's balances, the socket codec, the client's fee comparison). Exact without float math: the
// digits become a number only when the result is a safe integer, and the check on the result
// catches every value too large for one (a value >= 2^53 never rounds down below it).

const HUNDREDTHS_TEXT = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/**
 * `'1000.5'` -> `100050`: a decimal string (leading zeros allowed, 1 or 2 decimals or none) as whole
 * hundredths. Undefined for anything else: not a string, an exponent, a sign other than `signed`'s
 * leading `-`, 3+ decimals, or a value beyond `Number.MAX_SAFE_INTEGER` hundredths. `-0` is 0.
 */
export function parseHundredths(text: unknown, sign: 'unsigned' | 'signed' = 'unsigned'): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = HUNDREDTHS_TEXT.exec(text);
  if (!m) return undefined;
  const [, minus, whole = '', frac = ''] = m;
  if (minus && sign === 'unsigned') return undefined;
  const n = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  if (!Number.isSafeInteger(n)) return undefined;
  return minus && n !== 0 ? -n : n;
}

/** Whether `text` is a decimal string `parseHundredths` reads (whatever its size): tells "too large" from "not a number". */
export function isHundredthsText(text: unknown, sign: 'unsigned' | 'signed' = 'unsigned'): boolean {
  if (typeof text !== 'string') return false;
  const m = HUNDREDTHS_TEXT.exec(text);
  return m !== null && (sign === 'signed' || m[1] === '');
}

/** `100050` -> `'1000.50'`, `-5` -> `'-0.05'`: whole hundredths (a safe integer) as a 2-decimal string. */
export function formatHundredths(n: number): string {
  const abs = Math.abs(n);
  const whole = Math.floor(abs / 100);
  const frac = abs - whole * 100;
  return `${n < 0 ? '-' : ''}${whole}.${frac < 10 ? '0' : ''}${frac}`;
}
