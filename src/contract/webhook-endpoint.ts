// The `endpoint` rule of every webhook subscription request, shared by the zod schemas
// (webhook-subscriptions.ts, for the simulator) and the client's validators (operations.ts).

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * True for an https URL, or an http URL on a loopback host. The platform requires HTTPS; plain
 * http is let through for loopback only, so a local receiver can subscribe to the simulator.
 */
export function isWebhookEndpoint(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

/** What a subscription's `endpoint` must be, in the words a ValidationError uses. */
export const WEBHOOK_ENDPOINT_RULE =
  'must be an HTTPS URL (plain http only on a loopback host, for local testing)';
