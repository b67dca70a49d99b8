/**
 * Just enough ASN.1 DER encoding to build an X.509 certificate (node:crypto can parse certificates
 * but not create them). Every function returns the complete TLV bytes of one value.
 */

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

function lengthBytes(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

/** One value: tag byte, DER length, content. */
export function tlv(tag: number, content: Uint8Array): Uint8Array {
  return concat([Uint8Array.of(tag), lengthBytes(content.byteLength), content]);
}

export const sequence = (...items: Uint8Array[]): Uint8Array => tlv(0x30, concat(items));
export const set = (...items: Uint8Array[]): Uint8Array => tlv(0x31, concat(items));
export const nullValue = (): Uint8Array => Uint8Array.of(0x05, 0x00);
export const utf8String = (text: string): Uint8Array => tlv(0x0c, new TextEncoder().encode(text));
/** A BIT STRING of whole bytes (zero unused bits). */
export const bitString = (bytes: Uint8Array): Uint8Array => tlv(0x03, concat([Uint8Array.of(0), bytes]));
/** `[n] EXPLICIT` context-specific constructed wrapper. */
export const explicit = (n: number, inner: Uint8Array): Uint8Array => tlv(0xa0 | n, inner);

/** A non-negative INTEGER (callers pass values >= 0; src/webhooks/testing/der.ts checks its callers'). */
export function integer(value: bigint): Uint8Array {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  // A leading 0x00 keeps a value whose top bit is set from reading as negative.
  if (Number.parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return tlv(0x02, bytes);
}

/** An OBJECT IDENTIFIER from dotted form. */
export function oid(dotted: string): Uint8Array {
  const arcs = dotted.split('.').map((arc) => BigInt(arc));
  const [first = 0n, second = 0n, ...rest] = arcs;
  const bytes: number[] = [];
  for (const arc of [first * 40n + second, ...rest]) {
    const groups: number[] = [Number(arc & 0x7fn)];
    for (let n = arc >> 7n; n > 0n; n >>= 7n) groups.unshift(Number(n & 0x7fn) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Uint8Array.from(bytes));
}

/** An X.509 Time: UTCTime for 1950-2049, GeneralizedTime otherwise (RFC 5280 4.1.2.5), whole seconds. */
export function time(date: Date): Uint8Array {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  const year = date.getUTCFullYear();
  const utc = year >= 1950 && year < 2050;
  return tlv(utc ? 0x17 : 0x18, new TextEncoder().encode(utc ? digits.slice(2) : digits));
}
