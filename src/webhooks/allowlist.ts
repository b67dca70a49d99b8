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

const HEX_GROUP = /^[0-9a-f]{1,4}$/;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Groups of one side of `::`; a dotted IPv4 tail (two groups) only where the address ends. */
function groupsOf(part: string, endsAddress: boolean): number[] | undefined {
  if (part === '') return [];
  const pieces = part.split(':');
  const groups: number[] = [];
  for (const [index, piece] of pieces.entries()) {
    if (endsAddress && index === pieces.length - 1 && IPV4.test(piece)) {
      const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
      groups.push((a << 8) | b, (c << 8) | d);
    } else if (HEX_GROUP.test(piece)) {
      groups.push(Number.parseInt(piece, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}

/**
 * The eight 16-bit groups of a lower-case IPv6 address in any RFC 4291 text form (`::`
 * compression, a dotted IPv4 tail), or undefined when it is not one. Written out rather than taken
 * from node:net, which edge runtimes lack; test/webhooks/allowlist.test.ts holds it to node's
 * `isIPv6` (for addresses without a zone: `fe80::1%eth0` is not one here).
 */
export function ipv6Groups(address: string): number[] | undefined {
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const compressed = halves.length === 2;
  const left = groupsOf(halves[0]!, !compressed);
  const right = compressed ? groupsOf(halves[1]!, true) : [];
  if (!left || !right) return undefined;
  const count = left.length + right.length;
  if (compressed ? count > 7 : count !== 8) return undefined;
  return [...left, ...new Array<number>(8 - count).fill(0), ...right];
}

/**
 * Reduces an address as a server socket reports it to plain IPv4 when it is one: an IPv4-mapped
 * IPv6 address (`::ffff:1.2.3.4`, also written `::ffff:102:304` or fully expanded) becomes
 * `1.2.3.4`; brackets are dropped. Anything else is returned lower-cased and trimmed.
 */
export function normalizeSourceAddress(ip: string): string {
  let address = ip.trim().toLowerCase();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  // A zone only qualifies link-local addresses; an address carrying one is left as it is.
  const groups = ipv6Groups(address);
  if (!groups) return address;
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
