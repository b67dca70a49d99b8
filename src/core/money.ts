import { Decimal as BaseDecimal } from 'decimal.js';
import { ValidationError } from './error.js';

/** A money amount as the API sends it: a decimal string with 2 decimals and an ISO 4217 code. */
export interface Money<C extends string = string> {
  /** Decimal string, e.g. `'1000.00'`. */
  amount: string;
  /** ISO 4217 code, e.g. `'USD'`. */
  currency: C;
}

/**
 * What the helpers accept as an amount: a decimal string, a safe integer, a bigint or a Decimal.
 * Shown in place in the API reference (no export of the package).
 * @inline
 */
export type AmountInput = string | number | bigint | BaseDecimal;

// A private Decimal constructor, so changing precision here never touches the caller's global one.
const Decimal = BaseDecimal.clone({ precision: 60, rounding: BaseDecimal.ROUND_HALF_EVEN });
type Dec = InstanceType<typeof Decimal>;

const DECIMALS = 2;
const DECIMAL_STRING = /^-?\d+(\.\d+)?$/;
const CURRENCY = /^[A-Z]{3}$/;

function reject(path: string, rule: string): never {
  throw new ValidationError('money', [{ path, rule, kind: 'money' }]);
}

function toDecimal(input: AmountInput, path: string): Dec {
  if (typeof input === 'number') {
    // Floats carry binary rounding error; only whole numbers that are exactly representable pass.
    if (!Number.isSafeInteger(input)) {
      reject(
        path,
        `must be a decimal string or a safe integer, got the number ${input} (floats are not money)`,
      );
    }
    return new Decimal(input);
  }
  if (typeof input === 'bigint') return new Decimal(input.toString());
  if (typeof input === 'string') {
    const trimmed = input.trim();
    if (!DECIMAL_STRING.test(trimmed))
      reject(path, `must be a decimal string like "1000.00", got "${input}"`);
    return new Decimal(trimmed);
  }
  if (BaseDecimal.isDecimal(input)) {
    if (!input.isFinite()) reject(path, 'must be finite');
    return new Decimal(input.toString());
  }
  return reject(path, `must be a decimal string, a safe integer or a bigint, got ${typeof input}`);
}

function exact(value: Dec, path: string): string {
  if (value.decimalPlaces() > DECIMALS) {
    reject(path, `must have at most ${DECIMALS} decimal places, got ${value.toFixed()}`);
  }
  // decimal.js keeps the sign of zero; '-0.00' is not a money string anyone wants to see.
  return (value.isZero() ? new Decimal(0) : value).toFixed(DECIMALS);
}

function checkCurrency<C extends string>(currency: C): C {
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) {
    reject('currency', `must be an ISO 4217 code of three upper-case letters, got "${String(currency)}"`);
  }
  return currency;
}

/** `money('1000', 'USD')` -> `{ amount: '1000.00', currency: 'USD' }`. More than 2 decimals is refused. */
export function money<C extends string>(amount: AmountInput, currency: C): Money<C> {
  return { amount: exact(toDecimal(amount, 'amount'), 'amount'), currency: checkCurrency(currency) };
}

/** `usd('1000')` -> `{ amount: '1000.00', currency: 'USD' }`. */
export function usd(amount: AmountInput): Money<'USD'> {
  return money(amount, 'USD');
}

/** Exact decimal value of a Money (a decimal.js Decimal). */
export function parseMoney(value: Money): BaseDecimal {
  checkCurrency(value.currency);
  return new BaseDecimal(toDecimal(value.amount, 'amount').toFixed());
}

/** Exact integer number of cents (hundredths) of a Money. */
export function toCents(value: Money): bigint {
  const dec = toDecimal(value.amount, 'amount');
  exact(dec, 'amount');
  return BigInt(dec.times(100).toFixed(0));
}

/** Money from an integer number of cents. */
export function fromCents<C extends string = 'USD'>(
  cents: bigint | number,
  currency: C = 'USD' as C,
): Money<C> {
  if (typeof cents === 'number' && !Number.isSafeInteger(cents)) {
    reject('cents', `must be a safe integer, got ${cents}`);
  }
  return money(new Decimal(cents.toString()).dividedBy(100), currency);
}

function sameCurrency<C extends string>(a: Money<C>, b: Money<C>): C {
  if (a.currency !== b.currency) reject('currency', `cannot combine ${a.currency} with ${b.currency}`);
  return checkCurrency(a.currency);
}

/** `a + b`. Throws ValidationError (kind `MV_VALIDATION`) for two currencies or a malformed amount. */
export function addMoney<C extends string>(a: Money<C>, b: Money<C>): Money<C> {
  const currency = sameCurrency(a, b);
  return money(toDecimal(a.amount, 'amount').plus(toDecimal(b.amount, 'amount')), currency);
}

/** `a - b`. Throws ValidationError (kind `MV_VALIDATION`) for two currencies or a malformed amount. */
export function subMoney<C extends string>(a: Money<C>, b: Money<C>): Money<C> {
  const currency = sameCurrency(a, b);
  return money(toDecimal(a.amount, 'amount').minus(toDecimal(b.amount, 'amount')), currency);
}

/** Sum of several Money values of one currency (`currency` names it when the list may be empty). */
export function sumMoney(values: readonly Money[], currency = values[0]?.currency ?? 'USD'): Money {
  return values.reduce((acc, v) => addMoney(acc, v), money(0, currency));
}

/** -1, 0 or 1, like a sort comparator. */
export function compareMoney(a: Money, b: Money): -1 | 0 | 1 {
  sameCurrency(a, b);
  const c = toDecimal(a.amount, 'amount').comparedTo(toDecimal(b.amount, 'amount'));
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

/** Same currency and the same amount, whatever the notation (`'1.5'` equals `'1.50'`). */
export function moneyEquals(a: Money, b: Money): boolean {
  return a.currency === b.currency && compareMoney(a, b) === 0;
}

/** Options of {@link formatMoney}. */
export interface FormatMoneyOptions {
  /** Thousands separator; default ','. */
  groupSeparator?: string;
  /** Append the currency code; default true. */
  currency?: boolean;
}

/** `formatMoney(usd('1234567.5'))` -> `'1,234,567.50 USD'`. String work only, no float rounding. */
export function formatMoney(value: Money, options: FormatMoneyOptions = {}): string {
  const fixed = exact(toDecimal(value.amount, 'amount'), 'amount');
  const negative = fixed.startsWith('-');
  const [whole = '0', frac = '00'] = (negative ? fixed.slice(1) : fixed).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, options.groupSeparator ?? ',');
  const text = `${negative ? '-' : ''}${grouped}.${frac}`;
  return options.currency === false ? text : `${text} ${value.currency}`;
}
