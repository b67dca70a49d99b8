/**
 * Integer cents (safe integers) for every balance; decimal strings only at the wire. The
 * conversions are the contract's (src/contract/money.ts): string/integer operations, exact for
 * every safe integer (no float math). Here they get the engine's names for its two units.
 */
import { formatHundredths, isHundredthsText, parseHundredths, VENUE_CURRENCY } from '../../contract/money.js';

export function formatCents(cents: number): string {
  return formatHundredths(cents);
}

/** Parses a 2-decimal amount string to cents (negative allowed); undefined when it is not one. */
export function parseCents(amount: string): number | undefined {
  return parseHundredths(amount, 'signed');
}

/**
 * A well-formed amount (digits, at most 2 decimals) that `parseCents` refused because it is too
 * large for exact cents: far above any transaction limit, so it answers 137009, not a format error.
 */
export function isOversizeAmount(amount: string): boolean {
  return isHundredthsText(amount);
}

/** Money as the simulator's REST answers carry it: a decimal string with 2 decimals. */
export type WireMoney = {
  /** Decimal string, e.g. `'1000.00'`. */
  amount: string;
  /** ISO 4217 code; `USD` on the venue. */
  currency: string;
};

export function usdMoney(cents: number): WireMoney {
  return { amount: formatCents(cents), currency: VENUE_CURRENCY };
}

/** feeBps strings are non-negative with at most 2 decimals; the engine works in hundredths of a bps. */
export function parseCentiBps(feeBps: string): number | undefined {
  return parseHundredths(feeBps);
}

export function formatCentiBps(centiBps: number): string {
  return formatHundredths(centiBps);
}
