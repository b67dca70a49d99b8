import { X509Certificate } from 'node:crypto';
import { AsyncCache } from './async-cache.js';
import { WebhookError } from './errors.js';
import type { FetchLike } from './fetch.js';

/** Parses a PEM signing certificate, requiring an RSA public key (what SNS signs with). */
export function parseSigningCertificate(pem: string | Uint8Array): X509Certificate {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pem);
  } catch (error) {
    throw new WebhookError(
      'WEBHOOK_CERT_INVALID',
      'SNS signing certificate is not a valid X.509 certificate.',
      {
        cause: error,
      },
    );
  }
  if (certificate.publicKey.asymmetricKeyType !== 'rsa') {
    throw new WebhookError(
      'WEBHOOK_CERT_INVALID',
      'SNS signing certificate does not hold an RSA public key.',
    );
  }
  return certificate;
}

/**
 * Fails with `WEBHOOK_CERT_EXPIRED` / `WEBHOOK_CERT_NOT_YET_VALID` unless `nowMs` lies inside the
 * certificate's validity period.
 */
export function assertCertificateCurrent(certificate: X509Certificate, nowMs: number): void {
  const notBefore = Date.parse(certificate.validFrom);
  const notAfter = Date.parse(certificate.validTo);
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

/**
 * Loads signing certificates by URL through `fetch`, caching each URL's certificate (SNS keeps a
 * certificate at one URL; a new one gets a new URL) and sharing concurrent loads. The URL must
 * already have passed the URL policy: this function fetches whatever it is given.
 */
export function createCertificateLoader(
  fetchFn: FetchLike,
  maxEntries = 64,
): (url: string) => Promise<X509Certificate> {
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
    return parseSigningCertificate(await response.text());
  }, maxEntries);
  return (url) => cache.get(url);
}
