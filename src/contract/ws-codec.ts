import { Decimal } from 'decimal.js';
import type { ClientFrame, ServerFrame } from './ws-protocol.js';

// How frames, and the money inside them, travel as socket text. Money is encoded by the simulator's
// hub and decoded by the client's stream with the same rules; the client parses and writes its
// frames here, apart from the connection state (as ws keeps its receiver and sender apart).

/**
 * How Money travels on the socket. The simulator keeps REST's Money objects
 * (`{amount: '1000.00', currency: 'USD'}`); the real venue sends integer cents
 * (`{amount: 100000, currency: 'USD'}`). Switching is this one constant: the server encodes
 * with it, the client decodes with it, and consumers always get REST's Money objects.
 */
export type SocketMoneyFormat = 'decimal-object' | 'integer-cents';
export const SOCKET_MONEY_FORMAT: SocketMoneyFormat = 'decimal-object';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMoneyShape(value: Record<string, unknown>, amountType: 'string' | 'number'): boolean {
  const keys = Object.keys(value);
  return (
    keys.length === 2 &&
    typeof value.currency === 'string' &&
    typeof value.amount === amountType &&
    (amountType === 'string' || Number.isSafeInteger(value.amount))
  );
}

function mapMoney(
  value: unknown,
  amountType: 'string' | 'number',
  convert: (amount: never) => unknown,
): unknown {
  if (Array.isArray(value)) return value.map((v) => mapMoney(v, amountType, convert));
  if (!isPlainObject(value)) return value;
  if (isMoneyShape(value, amountType))
    return { amount: convert(value.amount as never), currency: value.currency };
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = mapMoney(v, amountType, convert);
  return out;
}

const toCents = (amount: string): number => {
  const cents = new Decimal(amount).times(100);
  if (!cents.isInteger()) throw new RangeError(`money amount has more than 2 decimals: ${amount}`);
  return cents.toNumber();
};
const fromCents = (cents: number): string => new Decimal(cents).dividedBy(100).toFixed(2);

/** REST wire JSON -> socket wire JSON (server side). */
export function encodeSocketData(data: unknown, format: SocketMoneyFormat = SOCKET_MONEY_FORMAT): unknown {
  return format === 'decimal-object' ? data : mapMoney(data, 'string', toCents);
}

/** Socket wire JSON -> REST wire JSON (client side). */
export function decodeSocketData(data: unknown, format: SocketMoneyFormat = SOCKET_MONEY_FORMAT): unknown {
  return format === 'decimal-object' ? data : mapMoney(data, 'number', fromCents);
}

/**
 * Socket text -> a server frame; undefined when it is JSON but not an object. Throws (SyntaxError)
 * when the text is not JSON. Fields are not checked: the client ignores frame types it does not
 * know and passes unknown event kinds through.
 */
export function parseServerFrame(text: string): ServerFrame | undefined {
  const frame: unknown = JSON.parse(text);
  return typeof frame === 'object' && frame !== null ? (frame as ServerFrame) : undefined;
}

/** A client frame -> socket text. */
export function serializeClientFrame(frame: ClientFrame): string {
  return JSON.stringify(frame);
}
