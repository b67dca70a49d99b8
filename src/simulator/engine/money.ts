import { Decimal } from 'decimal.js';

/** Integer cents (safe integers) for every balance; decimal strings only at the wire. */
export function formatCents(cents: number): string {
  return new Decimal(cents).div(100).toFixed(2);
}

/** Parses a 2-decimal amount string to cents; undefined when it is not one. */
export function parseCents(amount: string): number | undefined {
  if (!/^-?\d+(\.\d{1,2})?$/.test(amount)) return undefined;
  const cents = new Decimal(amount).mul(100);
  if (!cents.isInteger()) return undefined;
  const n = cents.toNumber();
  return Number.isSafeInteger(n) ? n : undefined;
}

export interface WireMoney {
  amount: string;
  currency: string;
}

export function usdMoney(cents: number): WireMoney {
  return { amount: formatCents(cents), currency: 'USD' };
}

/** feeBps strings carry at most 2 decimals; the engine works in hundredths of a basis point. */
export function parseCentiBps(feeBps: string): number | undefined {
  if (!/^\d+(\.\d{1,2})?$/.test(feeBps)) return undefined;
  const n = new Decimal(feeBps).mul(100).toNumber();
  return Number.isSafeInteger(n) ? n : undefined;
}

export function formatCentiBps(centiBps: number): string {
  return new Decimal(centiBps).div(100).toFixed(2);
}
