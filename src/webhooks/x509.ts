import { oid } from '../webhook-crypto/der.js';
import { decodeBase64 } from './base64.js';
import { DER_TAG, DerReadError, type DerValue, readDer, readSequence, sameBytes } from './der-reader.js';

/** The parts of an X.509 certificate a signature check needs. */
export interface CertificateFields {
  notBefore: Date;
  notAfter: Date;
  /** The DER SubjectPublicKeyInfo, as WebCrypto and node:crypto import it. */
  subjectPublicKeyInfo: Uint8Array;
  /** The DER encoding of the public key's algorithm OBJECT IDENTIFIER. */
  publicKeyAlgorithm: Uint8Array;
}

/** rsaEncryption, the algorithm of an RSA SubjectPublicKeyInfo. */
export const RSA_ENCRYPTION = oid('1.2.840.113549.1.1.1');

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]*?)-----END CERTIFICATE-----/;

/**
 * The DER bytes of a certificate given as PEM text (the first CERTIFICATE block), as PEM bytes, or
 * as DER bytes already (a DER certificate starts with a SEQUENCE tag; PEM text never does).
 */
export function certificateDer(input: string | Uint8Array): Uint8Array {
  if (typeof input !== 'string' && input[0] === DER_TAG.sequence) return input;
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  const body = PEM_CERTIFICATE.exec(text)?.[1];
  const der = body === undefined ? undefined : decodeBase64(body);
  if (!der) throw new DerReadError('no PEM CERTIFICATE block');
  return der;
}

const UTC_TIME = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/;
const GENERALIZED_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/;

/**
 * An X.509 Time: UTCTime (two-digit years 50-99 are 19xx, 00-49 20xx) or GeneralizedTime, in the
 * only forms RFC 5280 allows (whole seconds, Z). A date the calendar lacks (Feb 30) is refused.
 */
function readTime(value: DerValue | undefined, what: string): Date {
  const text = value ? String.fromCharCode(...value.content) : '';
  const match =
    value?.tag === DER_TAG.utcTime
      ? UTC_TIME.exec(text)
      : value?.tag === DER_TAG.generalizedTime
        ? GENERALIZED_TIME.exec(text)
        : null;
  if (!match) throw new DerReadError(`${what} is not an X.509 UTCTime or GeneralizedTime`);
  const [year2or4, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const year = value?.tag === DER_TAG.utcTime ? (year2or4 >= 50 ? 1900 : 2000) + year2or4 : year2or4;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    date.getUTCHours() !== hour ||
    date.getUTCMinutes() !== minute ||
    date.getUTCSeconds() !== second
  ) {
    throw new DerReadError(`${what} names a date that does not exist`);
  }
  return date;
}

/**
 * Reads a certificate's validity period and public key (RFC 5280 4.1). It does not check the
 * certificate's own signature: SNS verifiers trust a certificate for the URL it came from, not for a
 * chain (src/webhooks/README.md, Trust rules).
 */
export function readCertificate(der: Uint8Array): CertificateFields {
  const [tbs] = readSequence(readDer(der), 'Certificate', 3);
  const fields = readSequence(tbs, 'TBSCertificate', 6, true);
  // version is [0] EXPLICIT and absent for v1 certificates.
  const at = fields[0]?.tag === 0xa0 ? 1 : 0;
  const [notBefore, notAfter] = readSequence(fields[at + 3], 'Validity', 2);
  const spki = fields[at + 5];
  const [algorithm] = readSequence(spki, 'SubjectPublicKeyInfo', 2);
  const [algorithmOid] = readSequence(algorithm, 'AlgorithmIdentifier', 1, true);
  if (algorithmOid?.tag !== DER_TAG.oid) throw new DerReadError('AlgorithmIdentifier lacks its OID');
  return {
    notBefore: readTime(notBefore, 'notBefore'),
    notAfter: readTime(notAfter, 'notAfter'),
    subjectPublicKeyInfo: spki!.encoding,
    publicKeyAlgorithm: algorithmOid.encoding,
  };
}

/** True when the certificate's key is an RSA key. */
export function holdsRsaKey(fields: CertificateFields): boolean {
  return sameBytes(fields.publicKeyAlgorithm, RSA_ENCRYPTION);
}
