import type { KeyObject } from 'node:crypto';
import { bitString, explicit, integer, nullValue, oid, sequence, set, time, utf8String } from './der.js';
import { requireNodeCrypto } from './node-crypto.js';

const SHA256_WITH_RSA = '1.2.840.113549.1.1.11';
const COMMON_NAME = '2.5.4.3';

/** Options of {@link createSelfSignedCertificate}. */
export interface SelfSignedCertificateOptions {
  /** RSA key pair; the certificate holds the public key and is signed with the private key. */
  privateKey: KeyObject;
  /** The public half of the RSA key pair, which the certificate holds. */
  publicKey: KeyObject;
  /** Subject and issuer common name. Default `sns.amazonaws.com` (what SNS certificates name). */
  commonName?: string;
  /** Default: one day before now. */
  notBefore?: Date;
  /** Default: one year after now. */
  notAfter?: Date;
}

/**
 * Builds a minimal self-signed X.509 v3 certificate (no extensions) for an RSA key pair (callers
 * pass one: match-venue/webhooks' createSelfSignedCertificate checks), signed with
 * sha256WithRSAEncryption, as PEM. The certificate of SNS-style signing keys, for tests and the
 * simulator: it proves key possession to a verifier that already trusts the URL it came from.
 */
export function selfSignedCertificate(options: SelfSignedCertificateOptions): string {
  const { randomBytes, sign } = requireNodeCrypto('Building a self-signed certificate');
  const now = Date.now();
  const notBefore = options.notBefore ?? new Date(now - 86_400_000);
  const notAfter = options.notAfter ?? new Date(now + 365 * 86_400_000);
  const algorithm = sequence(oid(SHA256_WITH_RSA), nullValue());
  const name = sequence(
    set(sequence(oid(COMMON_NAME), utf8String(options.commonName ?? 'sns.amazonaws.com'))),
  );
  const serialBytes = randomBytes(16);
  serialBytes[0] = (serialBytes[0] ?? 0) & 0x7f;
  const tbs = sequence(
    explicit(0, integer(2n)),
    integer(BigInt(`0x${serialBytes.toString('hex')}`) || 1n),
    algorithm,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    new Uint8Array(options.publicKey.export({ type: 'spki', format: 'der' })),
  );
  const signature = sign('sha256', tbs, options.privateKey);
  const der = Buffer.from(sequence(tbs, algorithm, bitString(new Uint8Array(signature))));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
