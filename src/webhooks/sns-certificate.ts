import { AsyncCache } from './async-cache.js';
import { DerReadError } from './der-reader.js';
import { WebhookError } from './errors.js';
import type { FetchLike } from './fetch.js';
import type { RsaCheck, SignatureBackend } from './signature-backend.js';
import { certificateDer, holdsRsaKey, readCertificate } from './x509.js';

/** An SNS signing certificate: its validity period and its RSA public key. */
export interface SigningCertificate {
  /** Start of the validity period. */
  readonly notBefore: Date;
  /** End of the validity period. */
  readonly notAfter: Date;
  /** The RSA public key as a DER SubjectPublicKeyInfo. */
  readonly subjectPublicKeyInfo: Uint8Array;
}

/**
 * Parses a signing certificate (PEM text or bytes, or DER bytes), requiring an RSA public key (what
 * SNS signs with). Pure parsing, the same on every runtime; the key is imported when a verifier
 * first uses it.
 */
export function parseSigningCertificate(pem: string | Uint8Array): SigningCertificate {
  let fields: ReturnType<typeof readCertificate>;
  try {
    fields = readCertificate(certificateDer(pem));
  } catch (error) {
    if (!(error instanceof DerReadError)) throw error;
    throw new WebhookError(
      'WEBHOOK_CERT_INVALID',
      `SNS signing certificate is not a valid X.509 certificate (${error.message}).`,
      { cause: error },
    );
  }
  if (!holdsRsaKey(fields)) {
    throw new WebhookError(
      'WEBHOOK_CERT_INVALID',
      'SNS signing certificate does not hold an RSA public key.',
    );
  }
  return {
    notBefore: fields.notBefore,
    notAfter: fields.notAfter,
    subjectPublicKeyInfo: fields.subjectPublicKeyInfo,
  };
}

/**
 * Fails with `WEBHOOK_CERT_EXPIRED` / `WEBHOOK_CERT_NOT_YET_VALID` unless `nowMs` lies inside the
 * certificate's validity period.
 */
export function assertCertificateCurrent(
  certificate: Pick<SigningCertificate, 'notBefore' | 'notAfter'>,
  nowMs: number,
): void {
  const notBefore = certificate.notBefore.getTime();
  const notAfter = certificate.notAfter.getTime();
  if (nowMs > notAfter) {
    throw new WebhookError(
      'WEBHOOK_CERT_EXPIRED',
      `SNS signing certificate expired at ${new Date(notAfter).toISOString()}.`,
    );
  }
  if (nowMs < notBefore) {
    throw new WebhookError(
      'WEBHOOK_CERT_NOT_YET_VALID',
      `SNS signing certificate is not valid before ${new Date(notBefore).toISOString()}.`,
    );
  }
}

/** A parsed certificate with its key imported, ready to check signatures. */
export interface LoadedCertificate {
  certificate: SigningCertificate;
  check: RsaCheck;
}

/** Imports a parsed certificate's key; an RSA key the backend cannot use is `WEBHOOK_CERT_INVALID`. */
export async function loadCertificate(
  certificate: SigningCertificate,
  backend: SignatureBackend,
): Promise<LoadedCertificate> {
  try {
    return { certificate, check: await backend.importRsa(certificate.subjectPublicKeyInfo) };
  } catch (error) {
    throw new WebhookError('WEBHOOK_CERT_INVALID', 'SNS signing certificate holds an unusable RSA key.', {
      cause: error,
    });
  }
}

/**
 * Loads signing certificates by URL through `fetch`, caching each URL's certificate with its imported
 * key (SNS keeps a certificate at one URL; a new one gets a new URL) and sharing concurrent loads.
 * The URL must already have passed the URL policy: this function fetches whatever it is given.
 */
export function createCertificateLoader(
  fetchFn: FetchLike,
  backend: SignatureBackend,
  maxEntries = 64,
): (url: string) => Promise<LoadedCertificate> {
  const cache = new AsyncCache(async (url) => {
    let response: Response;
    try {
      response = await fetchFn(url, { method: 'GET', redirect: 'error' });
    } catch (error) {
      throw new WebhookError(
        'WEBHOOK_CERT_FETCH_FAILED',
        `Fetching the SNS signing certificate ${url} failed.`,
        {
          cause: error,
        },
      );
    }
    if (!response.ok) {
      throw new WebhookError(
        'WEBHOOK_CERT_FETCH_FAILED',
        `Fetching the SNS signing certificate ${url} answered HTTP ${response.status}.`,
      );
    }
    return loadCertificate(parseSigningCertificate(await response.text()), backend);
  }, maxEntries);
  return (url) => cache.get(url);
}
