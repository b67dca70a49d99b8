/** HTTP plumbing of the chaos fault proxy (fault-proxy.ts): upstream checks and request reading. */

/** The routes hurt when none are named: the two creates whose outcome a client can lose. */
export const DEFAULT_ROUTES = ['POST /v1/match/orders', 'POST /v1/match/withdrawals'];
/** Headers that belong to one connection, never forwarded. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
]);

/** `raw` as a URL, refused unless it names a loopback host. */
export function loopbackUrl(raw: string): URL {
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!(host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host))) {
    throw new Error(`fault proxy: upstream must be a loopback address, got ${url.host}`);
  }
  return url;
}

/** The idempotency key of a JSON request body, if it has one. */
export function keyOf(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { idempotencyKey?: unknown };
    return typeof parsed.idempotencyKey === 'string' ? parsed.idempotencyKey : undefined;
  } catch {
    return undefined;
  }
}
