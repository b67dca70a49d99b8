import { isIPv6 } from 'node:net';

/** v2 products that deliver webhooks from fixed source addresses. */
export type WebhookProduct = 'wallet' | 'contract' | 'transfer' | 'payments-network' | 'fx';

const WALLET_FAMILY = ['54.243.112.156', '100.24.191.35', '54.165.52.248', '54.87.106.46'] as const;
const PAYMENTS_FAMILY = ['35.169.154.32', '3.90.127.28', '3.230.111.7', '54.88.227.75'] as const;

/**
 * The documented v2 webhook source addresses per product: wallet, contract and multichain transfer
 * share four, payments-network and FX share another four. v1 (SNS) has no list: its traffic comes
 * from the notification service's large published ranges, so v1 receivers rely on signatures.
 */
export const WEBHOOK_SOURCE_ADDRESSES: Readonly<Record<WebhookProduct, readonly string[]>> = Object.freeze({
  wallet: WALLET_FAMILY,
  contract: WALLET_FAMILY,
  transfer: WALLET_FAMILY,
  'payments-network': PAYMENTS_FAMILY,
  fx: PAYMENTS_FAMILY,
});

/** Expands a valid IPv6 address to its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted !== undefined) {
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * Reduces an address as a server socket reports it to plain IPv4 when it is one: an IPv4-mapped
 * IPv6 address (`::ffff:1.2.3.4`, also written `::ffff:102:304` or fully expanded) becomes
 * `1.2.3.4`; brackets are dropped. Anything else is returned lower-cased and trimmed.
 */
export function normalizeSourceAddress(ip: string): string {
  let address = ip.trim().toLowerCase();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (!mapped) return address;
  const high = groups[6] ?? 0;
  const low = groups[7] ?? 0;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * True when `ip` (a socket's remote address, IPv4 or IPv4-mapped IPv6) is one of `product`'s
 * documented webhook sources. Behind a proxy, pass the client address the proxy reports, not the
 * proxy's own.
 */
export function isAllowedSource(ip: string, product: WebhookProduct): boolean {
  // `product` may come from untyped configuration, so an unknown product is simply "not allowed".
  return WEBHOOK_SOURCE_ADDRESSES[product]?.includes(normalizeSourceAddress(ip)) ?? false;
}
