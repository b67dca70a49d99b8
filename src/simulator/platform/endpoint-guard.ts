/**
 * Webhooks cannot reach into the host (issue 33): a simulator bound off loopback is shared, and
 * any holder of a published seeded key could subscribe `http://127.0.0.1:<port>/admin` or a cloud
 * metadata address and have the simulator POST there. While the policy says `public`, an endpoint
 * whose host is, or resolves to, a loopback, private, link-local or otherwise non-public address
 * is refused at create time and again right before each request (a name may rebind in between).
 * Deliveries never follow redirects (`redirect: 'manual'`), so a 3xx cannot lead elsewhere.
 * Docs: ./README.md, "Private addresses".
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Every address a host name resolves to, as node:dns `lookup(name, { all: true })` answers. */
export type WebhookLookup = (hostname: string) => Promise<readonly { address: string }[]>;

/**
 * `any`: endpoints may be anywhere (a simulator on loopback or used in-process: local receivers
 * are the normal case); `public`: non-public addresses are refused (bound off loopback).
 */
export type WebhookTargets = 'any' | 'public';

/** The CLI flag that lets a simulator bound off loopback deliver to private addresses. */
export const ALLOW_PRIVATE_WEBHOOKS_FLAG = '--allow-private-webhooks';

// Ranges no shared simulator should post to: the host itself, its networks, and addresses that
// are not unicast on the internet. IPv4-mapped IPv6 (::ffff:a.b.c.d) is checked against the IPv4
// rules by BlockList itself.
const IPV4_RANGES: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata at 169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const IPV6_RANGES: readonly [string, number][] = [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of IPV4_RANGES) NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of IPV6_RANGES) NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** Whether `address` (an IP literal) is loopback, private, link-local or otherwise non-public. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  // Not an address at all: treat it as unsafe rather than guess.
  if (family === 0) return true;
  return NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const defaultLookup: WebhookLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

// getaddrinfo has no deadline of its own: a stuck resolver must not hold a create or a delivery.
const LOOKUP_TIMEOUT_MS = 5_000;

async function withDeadline<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })),
      LOOKUP_TIMEOUT_MS,
    );
    timer.unref?.();
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

export interface EndpointGuardOptions {
  /** The policy in force, asked on every check (it follows the servers listening). */
  targets: () => WebhookTargets;
  /** Resolves host names; default node:dns `lookup` with `all: true`. */
  lookup?: WebhookLookup;
}

export class EndpointGuard {
  readonly #targets: () => WebhookTargets;
  readonly #lookup: WebhookLookup;

  constructor(options: EndpointGuardOptions) {
    this.#targets = options.targets;
    this.#lookup = options.lookup ?? defaultLookup;
  }

  /**
   * Why the simulator must not send to `endpoint` now, or undefined when it may. The reason names
   * the host and the address only: a path or query may carry the receiver's secret.
   */
  async refusal(endpoint: string): Promise<string | undefined> {
    if (this.#targets() === 'any') return undefined;
    const why = await this.#nonPublic(endpoint);
    return why === undefined
      ? undefined
      : `${why}, refused while the simulator is bound off loopback; start it with ` +
          `${ALLOW_PRIVATE_WEBHOOKS_FLAG} (allowPrivateWebhooks in listen()) to allow private endpoints`;
  }

  async #nonPublic(endpoint: string): Promise<string | undefined> {
    let hostname: string;
    try {
      hostname = new URL(endpoint).hostname;
    } catch {
      return 'the endpoint is not a URL';
    }
    const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    if (isIP(host) !== 0)
      return isNonPublicAddress(host) ? `${host} is a loopback, private or link-local address` : undefined;
    let addresses: string[];
    try {
      addresses = (await withDeadline(this.#lookup(host))).map((a) => a.address);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      return `${host} could not be resolved${typeof code === 'string' ? ` (${code})` : ''} to check its address`;
    }
    if (addresses.length === 0) return `${host} resolves to no address`;
    // Every address: a client may connect to any of them.
    const blocked = addresses.find(isNonPublicAddress);
    return blocked === undefined
      ? undefined
      : `${host} resolves to ${blocked}, a loopback, private or link-local address`;
  }
}
