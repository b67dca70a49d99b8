/**
 * Just enough ASN.1 DER reading to take a certificate's validity and public key, a public key's
 * algorithm and an ECDSA signature's two integers apart, on any runtime (the writing side is
 * src/webhook-crypto/der.ts). Canonical DER only: a definite, minimally encoded length, single-byte tags,
 * nothing after the outermost value.
 */

/** One value inside a larger byte string. */
export interface DerValue {
  readonly tag: number;
  /** The content octets. */
  readonly content: Uint8Array;
  /** The whole encoding: tag, length and content. */
  readonly encoding: Uint8Array;
}

/** The bytes are not the canonical DER the caller expected; callers turn it into their own error. */
export class DerReadError extends Error {
  override readonly name = 'DerReadError';
}

export const DER_TAG = {
  integer: 0x02,
  bitString: 0x03,
  oid: 0x06,
  utcTime: 0x17,
  generalizedTime: 0x18,
  sequence: 0x30,
} as const;

function readAt(bytes: Uint8Array, offset: number): { value: DerValue; end: number } {
  if (offset + 2 > bytes.length) throw new DerReadError('truncated DER value');
  const tag = bytes[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new DerReadError('multi-byte DER tag');
  let length = bytes[offset + 1]!;
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    // 0x80 is BER's indefinite length; four length bytes already allow 4 GiB.
    if (count === 0 || count > 4) throw new DerReadError('indefinite or oversized DER length');
    if (start + count > bytes.length) throw new DerReadError('truncated DER length');
    if (bytes[start] === 0) throw new DerReadError('DER length with a leading zero byte');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[start + i]!;
    if (length < 0x80) throw new DerReadError('DER length in long form below 128');
    start += count;
  }
  const end = start + length;
  if (end > bytes.length) throw new DerReadError('DER value runs past its container');
  return {
    value: { tag, content: bytes.subarray(start, end), encoding: bytes.subarray(offset, end) },
    end,
  };
}

/** The one value `bytes` holds; anything after it is an error. */
export function readDer(bytes: Uint8Array): DerValue {
  const { value, end } = readAt(bytes, 0);
  if (end !== bytes.length) throw new DerReadError('bytes after the DER value');
  return value;
}

/** The values inside a constructed value's content, in order. */
export function readChildren(parent: DerValue): DerValue[] {
  const children: DerValue[] = [];
  for (let offset = 0; offset < parent.content.length; ) {
    const { value, end } = readAt(parent.content, offset);
    children.push(value);
    offset = end;
  }
  return children;
}

/** `value` if it carries `tag`; `what` names it in the error. */
export function expectTag(value: DerValue | undefined, tag: number, what: string): DerValue {
  if (value?.tag !== tag) throw new DerReadError(`${what} is missing or has the wrong DER tag`);
  return value;
}

/** The children of a SEQUENCE, which must number `count` (or at least `count` when `atLeast`). */
export function readSequence(value: DerValue | undefined, what: string, count: number, atLeast = false) {
  const children = readChildren(expectTag(value, DER_TAG.sequence, what));
  if (atLeast ? children.length < count : children.length !== count) {
    throw new DerReadError(
      `${what} has ${children.length} elements, expected ${atLeast ? 'at least ' : ''}${count}`,
    );
  }
  return children;
}

/** True when two byte strings are equal (OIDs compared by encoding). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The magnitude of a non-negative INTEGER without its sign byte. Refuses a negative value and a
 * non-minimal encoding (a leading 0x00 the next byte does not need), as DER requires.
 */
export function unsignedInteger(value: DerValue, what: string): Uint8Array {
  const bytes = expectTag(value, DER_TAG.integer, what).content;
  if (bytes.length === 0) throw new DerReadError(`${what} is an empty INTEGER`);
  if (bytes[0]! & 0x80) throw new DerReadError(`${what} is negative`);
  if (bytes[0] === 0 && bytes.length > 1) {
    if (!(bytes[1]! & 0x80)) throw new DerReadError(`${what} has a superfluous leading zero byte`);
    return bytes.subarray(1);
  }
  return bytes;
}
