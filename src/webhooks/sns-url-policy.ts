/** Why a URL from an SNS message is about to be fetched. */
export type SnsUrlPurpose = 'certificate' | 'subscribe';

/**
 * Decides whether a URL taken from an SNS message may be fetched. It receives the URL already parsed
 * by the WHATWG parser, which is also the exact URL (its `href`) that will be fetched.
 */
export type SnsUrlPolicy = (url: URL, purpose: SnsUrlPurpose) => boolean;

/** `sns.<region>.amazonaws.com` or, for the China partition, `sns.<region>.amazonaws.com.cn`. */
const SNS_HOSTNAME = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/**
 * The production rule (the default): https, no userinfo, the default port, an SNS regional host
 * and, for a signing certificate, a path ending in `.pem`. Checking the parsed URL rather than the
 * string defeats `https://sns.us-east-1.amazonaws.com@evil.example/x.pem` (host evil.example) and
 * `https://sns.us-east-1.amazonaws.com.evil.example/x.pem` (host does not end in amazonaws.com).
 */
export const snsUrlPolicy: SnsUrlPolicy = (url, purpose) =>
  url.protocol === 'https:' &&
  url.username === '' &&
  url.password === '' &&
  url.port === '' &&
  SNS_HOSTNAME.test(url.hostname) &&
  (purpose !== 'certificate' || url.pathname.endsWith('.pem'));

const LOOPBACK_HOSTNAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * For local testing against the simulator only: accepts http(s) URLs on a loopback host, any port,
 * no userinfo. Production receivers keep the default {@link snsUrlPolicy}.
 */
export const loopbackUrlPolicy: SnsUrlPolicy = (url) =>
  (url.protocol === 'http:' || url.protocol === 'https:') &&
  url.username === '' &&
  url.password === '' &&
  LOOPBACK_HOSTNAMES.has(url.hostname);

/** Parses `raw` with the WHATWG parser and applies `policy`; returns the URL, or undefined if refused. */
export function acceptSnsUrl(raw: string, purpose: SnsUrlPurpose, policy: SnsUrlPolicy = snsUrlPolicy) {
  if (!URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  return policy(url, purpose) ? url : undefined;
}

/** True when `raw` passes the default production rule for `purpose` (default: certificate). */
export function isSnsUrl(raw: string, purpose: SnsUrlPurpose = 'certificate'): boolean {
  return acceptSnsUrl(raw, purpose) !== undefined;
}
