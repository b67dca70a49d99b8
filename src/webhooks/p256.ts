import { oid } from '../webhook-crypto/der.js';
import {
  DER_TAG,
  DerReadError,
  expectTag,
  readDer,
  readSequence,
  sameBytes,
  unsignedInteger,
} from './der-reader.js';

// The NIST P-256 curve y^2 = x^3 - 3x + b over GF(p) (SEC 2, secp256r1).
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;
const COORDINATE_BYTES = 32;

const EC_PUBLIC_KEY = oid('1.2.840.10045.2.1');
const PRIME256V1 = oid('1.2.840.10045.3.1.7');
/** SEQUENCE { SEQUENCE { ecPublicKey, prime256v1 }, BIT STRING (66 bytes: 0 unused bits, 04, X, Y) }. */
const UNCOMPRESSED_SPKI_PREFIX = Uint8Array.of(
  0x30,
  0x59,
  0x30,
  0x13,
  ...EC_PUBLIC_KEY,
  ...PRIME256V1,
  0x03,
  0x42,
  0x00,
  0x04,
);

/** Why a SubjectPublicKeyInfo is not a usable P-256 key. */
export type P256KeyProblem = 'not-der' | 'not-p256' | 'not-on-curve';

function toBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const byte of bytes) n = (n << 8n) | BigInt(byte);
  return n;
}

function toBytes(n: bigint): Uint8Array {
  const out = new Uint8Array(COORDINATE_BYTES);
  for (let i = COORDINATE_BYTES - 1, v = n; i >= 0; i--, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

function modPow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = base % P;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

/** x^3 - 3x + b mod p: what y^2 must equal for (x, y) to lie on the curve. */
function curveRhs(x: bigint): bigint {
  return (((x * x * x - 3n * x + B) % P) + P) % P;
}

/**
 * Reads a P-256 SubjectPublicKeyInfo and returns it in the uncompressed form both node:crypto and
 * WebCrypto import, after checking what they would: the ecPublicKey algorithm with the prime256v1
 * curve, and a point on the curve. A compressed point is expanded (p = 3 mod 4, so the square root is
 * one exponentiation). Pure arithmetic: the answer is the same on every runtime.
 */
export function readP256PublicKey(spki: Uint8Array): { spki: Uint8Array } | { problem: P256KeyProblem } {
  let point: Uint8Array;
  try {
    const [algorithm, key] = readSequence(readDer(spki), 'SubjectPublicKeyInfo', 2);
    const [algorithmOid, curve] = readSequence(algorithm, 'AlgorithmIdentifier', 1, true);
    if (!sameBytes(expectTag(algorithmOid, DER_TAG.oid, 'algorithm').encoding, EC_PUBLIC_KEY)) {
      return { problem: 'not-p256' };
    }
    if (curve?.tag !== DER_TAG.oid || !sameBytes(curve.encoding, PRIME256V1)) return { problem: 'not-p256' };
    const bits = expectTag(key, DER_TAG.bitString, 'subjectPublicKey').content;
    if (bits[0] !== 0) throw new DerReadError('subjectPublicKey has unused bits');
    point = bits.subarray(1);
  } catch (error) {
    if (error instanceof DerReadError) return { problem: 'not-der' };
    throw error;
  }
  const x = toBigInt(point.subarray(1, 1 + COORDINATE_BYTES));
  let y: bigint;
  if (point[0] === 0x04 && point.length === 1 + 2 * COORDINATE_BYTES) {
    y = toBigInt(point.subarray(1 + COORDINATE_BYTES));
  } else if ((point[0] === 0x02 || point[0] === 0x03) && point.length === 1 + COORDINATE_BYTES) {
    if (x >= P) return { problem: 'not-on-curve' };
    const root = modPow(curveRhs(x), (P + 1n) / 4n);
    y = (root & 1n) === BigInt(point[0] & 1) ? root : (P - root) % P;
  } else {
    return { problem: 'not-p256' };
  }
  if (x >= P || y >= P || (y * y) % P !== curveRhs(x)) return { problem: 'not-on-curve' };
  const out = new Uint8Array(UNCOMPRESSED_SPKI_PREFIX.length + 2 * COORDINATE_BYTES);
  out.set(UNCOMPRESSED_SPKI_PREFIX);
  out.set(toBytes(x), UNCOMPRESSED_SPKI_PREFIX.length);
  out.set(toBytes(y), UNCOMPRESSED_SPKI_PREFIX.length + COORDINATE_BYTES);
  return { spki: out };
}

/**
 * An ECDSA P-256 signature in ASN.1 DER (SEQUENCE of INTEGER r, INTEGER s, as the platform sends it)
 * as the 64-byte r || s WebCrypto verifies. Undefined for anything but canonical DER with r and s of
 * at most 32 bytes, matching OpenSSL's refusal of non-canonical encodings on the node:crypto path.
 */
export function derSignatureToP1363(der: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  try {
    const [r, s] = readSequence(readDer(der), 'ECDSA-Sig-Value', 2);
    const out = new Uint8Array(2 * COORDINATE_BYTES);
    for (const [index, value] of [r!, s!].entries()) {
      const magnitude = unsignedInteger(value, index === 0 ? 'r' : 's');
      if (magnitude.length > COORDINATE_BYTES) return undefined;
      out.set(magnitude, (index + 1) * COORDINATE_BYTES - magnitude.length);
    }
    return out;
  } catch (error) {
    if (error instanceof DerReadError) return undefined;
    throw error;
  }
}
