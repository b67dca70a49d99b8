import { ConfigurationError } from './error.js';

/**
 * True for localhost, 127.0.0.0/8 and ::1 (the only hosts allowed without TLS). Names under
 * `.localhost` are not: browsers pin them to loopback, but Node resolves them through DNS.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  if (host === '0:0:0:0:0:0:0:1') return true;
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return v4?.slice(1).every((octet) => Number(octet) <= 255) ?? false;
}

/**
 * Checks a base URL: https (or wss for sockets), or plain http/ws only towards a loopback host,
 * because the API key travels in every request; and not ending in `/v1`, which every path adds.
 */
export function checkBaseUrl(value: string, option: 'baseUrl' | 'wsUrl'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`${option} is not a valid URL: "${value}"`);
  }
  // Every path the client sends starts with its version (/v1/match/orders), so a base ending in it
  // would make each call go to /v1/v1/… and fail with a 404 far from the cause.
  if (/\/v1\/*$/i.test(url.pathname)) {
    const without = value.replace(/\/v1\/*$/i, '');
    throw new ConfigurationError(
      `${option} must not end in /v1: the client adds the version to every path (/v1/match/…), so ` +
        `this one would call /v1/v1/…; pass "${without}" instead.`,
    );
  }
  const secure = option === 'baseUrl' ? 'https:' : 'wss:';
  const plain = option === 'baseUrl' ? 'http:' : 'ws:';
  if (url.protocol === secure) return value.replace(/\/+$/, '');
  if (url.protocol === plain) {
    if (isLoopbackHost(url.hostname)) return value.replace(/\/+$/, '');
    throw new ConfigurationError(
      `${option} must use ${secure.slice(0, -1)}:// unless it points at a loopback address ` +
        `(localhost, 127.0.0.0/8, ::1); refusing to send credentials in clear text to ${url.host}.`,
    );
  }
  throw new ConfigurationError(
    `${option} must be an ${secure.slice(0, -1)}:// URL, got "${url.protocol}//".`,
  );
}
