/**
 * Who may talk to a listening simulator (issue 24): the Host check against DNS rebinding, the
 * refusal of cross-origin browser requests on the control plane and on writes, the control token
 * off loopback, and the CORS answers `cors` asks for. Applied by listen.ts to every HTTP request
 * and WebSocket upgrade; in-process requests (mock mode, msw, createMockVenue) never meet it.
 * The model, for users: src/simulator/README.md, "Who can reach it".
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  checkAllowedHosts,
  checkControlToken,
  checkCorsOrigin,
  HostNames,
  hostnameOf,
  isLoopbackBind,
} from './access-hosts.js';

/** The header that carries the control token on `/_sim/*`. */
export const CONTROL_TOKEN_HEADER = 'x-sim-control-token';

/** The access part of {@link ListenOptions}. */
export interface AccessOptions {
  /** Host names (or addresses) answered beside loopback names and the bound address. */
  allowedHosts?: readonly string[];
  /** One origin allowed to call cross-origin, with CORS headers; none by default. */
  cors?: string;
  /** Required on `/_sim/*` when given; generated when bound off loopback without one. */
  controlToken?: string;
}

/** A request refused before the handler: the status and the message of its JSON error body. */
export interface Refusal {
  status: 403 | 401;
  message: string;
}

/** What {@link AccessPolicy.admit} decides for one request. */
export type Admission =
  | { refused: Refusal }
  | { refused?: undefined; preflight: boolean; corsOrigin?: string; tokenGiven: boolean };

// SNS's own endpoints stand in for public ones: webhook receivers fetch the certificate and follow
// SubscribeURL / UnsubscribeURL (each carrying its own token or ARN) without the control token.
const TOKEN_EXEMPT = '/_sim/sns/';

// The dashboard's page, script and style hold no state and no secret: a browser cannot send the
// header on a navigation, so they load without it and the page asks for the token (ui/serve.ts).
// Their paths are handed in (`assetPaths`, by listen.ts): the dashboard is built on http, not under it.
const tokenExempt = (method: string, path: string, assetPaths: ReadonlySet<string>): boolean =>
  path.startsWith(TOKEN_EXEMPT) || ((method === 'GET' || method === 'HEAD') && assetPaths.has(path));
const SAFE_METHODS = new Set(['GET', 'HEAD']);
// Sent by browsers only; these two mean another origin's page made the request (no Origin on a
// no-cors GET such as an <img>), where `none` means the user typed the address.
const FOREIGN_FETCH_SITES = new Set(['cross-site', 'same-site']);

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

// Refusals name what was sent, briefly: a header can be kilobytes long.
function quoted(value: string): string {
  return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Whether `origin` is the page origin of a request sent to `host`, over http or https. */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const o = new URL(origin);
    if ((o.protocol !== 'http:' && o.protocol !== 'https:') || o.origin !== origin) return false;
    return o.host === new URL(`${o.protocol}//${host}`).host;
  } catch {
    // `null` (sandboxed frames, file: pages) and anything unparseable are foreign.
    return false;
  }
}

/** The per-server access rules, from its bind address and {@link AccessOptions}. */
export class AccessPolicy {
  /** The token `/_sim/*` requires (given or generated), or undefined when the control plane is open. */
  readonly controlToken: string | undefined;
  /** Whether {@link controlToken} was generated here (the CLI prints it then, once). */
  readonly generatedToken: boolean;
  private readonly hosts: HostNames;
  private readonly cors: string | undefined;
  private readonly tokenDigest: Buffer | undefined;
  private readonly knownHosts = new Set<string>();

  /**
   * `assetPaths`: the paths a GET or HEAD reads without the control token (the dashboard's assets).
   * Throws a RangeError naming the option when one is malformed.
   */
  constructor(
    bindHost: string,
    options: AccessOptions = {},
    private readonly assetPaths: ReadonlySet<string> = new Set(),
  ) {
    const allowed = options.allowedHosts === undefined ? [] : checkAllowedHosts(options.allowedHosts);
    this.hosts = new HostNames(bindHost, allowed);
    this.cors = options.cors === undefined ? undefined : checkCorsOrigin(options.cors);
    const given = options.controlToken === undefined ? undefined : checkControlToken(options.controlToken);
    this.generatedToken = given === undefined && !isLoopbackBind(bindHost);
    this.controlToken = this.generatedToken ? randomBytes(24).toString('base64url') : given;
    this.tokenDigest = this.controlToken === undefined ? undefined : digest(this.controlToken);
  }

  /** The Host check alone (the WebSocket upgrade runs it too). */
  checkHost(headers: IncomingHttpHeaders, target: string | undefined): Refusal | undefined {
    // The common request: an origin-form target and a Host already accepted. Issue 23: answered
    // before building the list below, on every request (0.6 us of each under load).
    const host = headers.host;
    if ((!target || target.startsWith('/')) && host !== undefined && this.knownHosts.has(host))
      return undefined;
    // An absolute-form target overrides Host (RFC 9112 3.2.2): both must name this simulator.
    const authorities = [host];
    if (target && !target.startsWith('/')) authorities.push(hostnameOfTarget(target));
    for (const authority of authorities) {
      if (authority === undefined || this.knownHosts.has(authority)) continue;
      // Not a `host[:port]` at all (`a b`, `evil.com:abc`) is foreign too: a page cannot be served
      // under it, and the dashboard and the upgrade never parse it again to refuse it later.
      const name = hostnameOf(authority);
      if (name !== undefined && this.hosts.accepts(name)) {
        // A server hears a handful of Host values; remembering them keeps the parse off the hot path.
        if (this.knownHosts.size < 64) this.knownHosts.add(authority);
        continue;
      }
      return {
        status: 403,
        message:
          `Host ${quoted(name ?? authority)} is not one this simulator answers to (DNS rebinding ` +
          'guard); start it with --allowed-hosts <name> (allowedHosts in listen()) to serve that name',
      };
    }
    return undefined;
  }

  /** Whether the request comes from another origin's page: Origin, else Sec-Fetch-Site. */
  private foreignOrigin(headers: IncomingHttpHeaders): string | undefined {
    const origin = one(headers.origin);
    if (origin !== undefined) {
      if (origin === this.cors || isOwnOrigin(origin, headers.host)) return undefined;
      return `Origin ${quoted(origin)}`;
    }
    const site = one(headers['sec-fetch-site']);
    return site && FOREIGN_FETCH_SITES.has(site) ? `Sec-Fetch-Site: ${site}` : undefined;
  }

  /** The WebSocket upgrade: Host, then Origin (browsers always send one on a socket). */
  admitUpgrade(headers: IncomingHttpHeaders, target: string | undefined): Refusal | undefined {
    const host = this.checkHost(headers, target);
    if (host) return host;
    const foreign = this.foreignOrigin(headers);
    return foreign === undefined ? undefined : crossOrigin(foreign);
  }

  /** One HTTP request: Host, the cross-origin rule, the CORS preflight, the control token. */
  admit(method: string, path: string, headers: IncomingHttpHeaders, target: string | undefined): Admission {
    const host = this.checkHost(headers, target);
    if (host) return { refused: host };
    const control = path.startsWith('/_sim/');
    const origin = one(headers.origin);
    const corsOrigin = this.cors !== undefined && origin === this.cors ? this.cors : undefined;
    // A preflight carries no credentials and no token; the actual request is checked on its own.
    if (corsOrigin && method === 'OPTIONS' && headers['access-control-request-method'] !== undefined)
      return { preflight: true, corsOrigin, tokenGiven: false };
    if (control || !SAFE_METHODS.has(method)) {
      const foreign = this.foreignOrigin(headers);
      if (foreign !== undefined) return { refused: crossOrigin(foreign) };
    }
    const tokenGiven = this.tokenMatches(one(headers[CONTROL_TOKEN_HEADER]));
    if (control && this.tokenDigest && !tokenGiven && !tokenExempt(method, path, this.assetPaths))
      return {
        refused: {
          status: 401,
          message:
            `The control plane (/_sim/*) needs the ${CONTROL_TOKEN_HEADER} header: this simulator ` +
            'requires a control token (printed by match-venue-sim at start, or set with ' +
            '--control-token / MATCH_VENUE_SIM_CONTROL_TOKEN)',
        },
      };
    return { preflight: false, tokenGiven, ...(corsOrigin ? { corsOrigin } : {}) };
  }

  private tokenMatches(value: string | undefined): boolean {
    if (value === undefined || this.tokenDigest === undefined) return false;
    // Digests have one length, so the comparison takes the same time whatever was sent.
    return timingSafeEqual(digest(value), this.tokenDigest);
  }

  /** CORS headers for an answer to the `cors` origin (none for anyone else). */
  corsHeaders(
    corsOrigin: string | undefined,
    preflight?: IncomingHttpHeaders,
  ): Record<string, string> | undefined {
    if (corsOrigin === undefined) return undefined;
    const headers: Record<string, string> = {
      'access-control-allow-origin': corsOrigin,
      vary: 'Origin',
      'access-control-expose-headers': 'x-request-id, x-account-seq, retry-after',
    };
    if (!preflight) return headers;
    const asked = one(preflight['access-control-request-headers']) ?? '';
    // Echo what was asked for when it is a plain header list; the origin is trusted by the operator.
    const allowHeaders = /^[\w-]+(\s*,\s*[\w-]+)*$/.test(asked) ? asked : 'authorization, content-type';
    return {
      ...headers,
      'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
      'access-control-allow-headers': allowHeaders,
      'access-control-max-age': '600',
    };
  }
}

function hostnameOfTarget(target: string): string | undefined {
  try {
    return new URL(target).host;
  } catch {
    return undefined;
  }
}

function crossOrigin(seen: string): Refusal {
  return {
    status: 403,
    message:
      `Cross-origin request refused (${seen}): /_sim/* and writes accept ` +
      'same-origin pages and clients that send no Origin; start the simulator with --cors <origin> ' +
      '(cors in listen()) to allow one origin',
  };
}
