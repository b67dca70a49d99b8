/**
 * Integer cents (safe integers) for every balance; decimal strings only at the wire. The
 * conversions are string/integer operations, exact for every safe integer (no float math).
 */
export function formatCents(cents: number): string {
  return formatHundredths(cents);
}

const TWO_DECIMALS = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

function parseHundredths(text: string, allowNegative: boolean): number | undefined {
  const m = TWO_DECIMALS.exec(text);
  if (!m) return undefined;
  const [, sign, whole = '', frac = ''] = m;
  if (sign && !allowNegative) return undefined;
  const n = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  if (!Number.isSafeInteger(n) || whole.length > 16) return undefined;
  return sign && n !== 0 ? -n : n;
}

function formatHundredths(n: number): string {
  const abs = Math.abs(n);
  const whole = Math.floor(abs / 100);
  const frac = abs - whole * 100;
  return `${n < 0 ? '-' : ''}${whole}.${frac < 10 ? '0' : ''}${frac}`;
}

/** Parses a 2-decimal amount string to cents; undefined when it is not one. */
export function parseCents(amount: string): number | undefined {
  return parseHundredths(amount, true);
}

/**
 * A well-formed amount (digits, at most 2 decimals) that `parseCents` refused because it is too
 * large for exact cents: far above any transaction limit, so it answers 137009, not a format error.
 */
export function isOversizeAmount(amount: string): boolean {
  return /^\d+(?:\.\d{1,2})?$/.test(amount);
}

/** Money as the simulator's REST answers carry it: a decimal string with 2 decimals. */
export type WireMoney = {
  /** Decimal string, e.g. `'1000.00'`. */
  amount: string;
  /** ISO 4217 code; `USD` on the venue. */
  currency: string;
};

export function usdMoney(cents: number): WireMoney {
  return { amount: formatCents(cents), currency: 'USD' };
}

/** feeBps strings are non-negative with at most 2 decimals; the engine works in hundredths of a bps. */
export function parseCentiBps(feeBps: string): number | undefined {
  return parseHundredths(feeBps, false);
}

export function formatCentiBps(centiBps: number): string {
  return formatHundredths(centiBps);
}
