/**
 * The names a listening simulator answers to (its Host check), and the checks of the listen
 * options that widen or open that set (`allowedHosts`, `cors`, `controlToken`). node:http only:
 * in-process use (mock mode, msw, createMockVenue) never goes through here.
 */
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

// `host[:port]` (RFC 9110 7.2, RFC 3986 3.2.2): a bracketed IPv6 literal, or a name or IPv4
// address of unreserved, sub-delim and %-escaped characters; a port of at most 5 digits. Checked
// before the URL parser, which is lenient past it: it drops tabs and newlines anywhere in the text.
const AUTHORITY = /^(?:\[[\w:.%]+\]|[\w\-.~!$&'()*+,;=%]+)(?::(\d{0,5}))?$/;

/**
 * The hostname of a Host header value: lowercased, IPv6 without brackets, no trailing dot.
 * `undefined` when it is not a `host[:port]`: spaces, credentials, a path, a port that is not 1
 * to 65535, an unclosed bracket, an address the URL parser refuses.
 */
export function hostnameOf(authority: string): string | undefined {
  const syntax = AUTHORITY.exec(authority);
  if (!syntax) return undefined;
  const port = syntax[1];
  if (port && (Number(port) < 1 || Number(port) > 65_535)) return undefined;
  try {
    return bare(new URL(`http://${authority}`).hostname);
  } catch {
    return undefined;
  }
}

function bare(hostname: string): string {
  const unbracketed = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

/** An address or name as the WHATWG URL parser writes it, so that `::1` and `0::1` compare equal. */
export function canonicalHost(host: string): string | undefined {
  return hostnameOf(isIP(host) === 6 ? `[${host}]` : host);
}

// `localhost` and its subdomains resolve to loopback inside the browser itself (RFC 6761), so a
// page elsewhere cannot be served under them; 127/8 and ::1 (also IPv4-mapped) are loopback.
export function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(name);
}

/** Whether a bind address listens on every interface (then every interface's address names it). */
function isUnspecified(name: string): boolean {
  return name === '0.0.0.0' || name === '::';
}

/**
 * The Host check: loopback names, the address bound to (every interface's address when bound to
 * all of them), and `allowed`. Interfaces are read on a miss only, so that an address a laptop
 * gained after start still works and the common case costs nothing.
 */
export class HostNames {
  private readonly names: ReadonlySet<string>;
  private readonly everyInterface: boolean;

  constructor(bindHost: string, allowed: readonly string[]) {
    const bound = canonicalHost(bindHost) ?? bindHost.toLowerCase();
    this.everyInterface = isUnspecified(bound);
    this.names = new Set([...allowed, ...(this.everyInterface ? [] : [bound])]);
  }

  /** Whether `name` (from {@link hostnameOf}) is one this simulator answers to. */
  accepts(name: string): boolean {
    if (isLoopbackName(name) || this.names.has(name)) return true;
    if (!this.everyInterface) return false;
    for (const list of Object.values(networkInterfaces()))
      for (const i of list ?? []) if (canonicalHost(i.address) === name) return true;
    return false;
  }
}

/** Whether binding `host` keeps the simulator on this machine (no control token needed then). */
export function isLoopbackBind(host: string): boolean {
  const name = canonicalHost(host);
  return name !== undefined && isLoopbackName(name);
}

/**
 * `allowedHosts` (CLI `--allowed-hosts a,b`): each a host name or IP address alone, no scheme, port
 * or path; canonicalised. Throws a RangeError naming `option`.
 */
export function checkAllowedHosts(hosts: readonly string[], option = 'allowedHosts'): string[] {
  if (!Array.isArray(hosts)) throw new RangeError(`${option} must be a list of host names`);
  return hosts.map((raw) => {
    const value = typeof raw === 'string' ? raw.trim() : '';
    const literal = isIP(value) === 6 ? `[${value}]` : value;
    // What follows the name (after an IPv6 literal's bracket) would be a port, even `:80`.
    const rest = literal.startsWith('[') ? literal.slice(literal.indexOf(']') + 1) : literal;
    const name = value && !value.startsWith('.') && !rest.includes(':') ? hostnameOf(literal) : undefined;
    if (!name)
      throw new RangeError(
        `${option} takes host names or IP addresses alone (e.g. sim.internal or 10.0.0.5, no scheme ` +
          `or port); got ${JSON.stringify(String(raw)).slice(0, 80)}`,
      );
    return name;
  });
}

/** `cors` (CLI `--cors <origin>`): one origin, scheme and host (and port), as a browser sends it. */
export function checkCorsOrigin(value: string, option = 'cors'): string {
  let origin: string | undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
  } catch {
    origin = undefined;
  }
  // A path other than `/` means the user gave a page, not an origin; `*` would reopen every site.
  if (origin === undefined || (value !== origin && value !== `${origin}/`))
    throw new RangeError(
      `${option} takes one origin such as https://app.example or http://localhost:3000 (scheme, ` +
        `host, port; no path, no '*'); got ${JSON.stringify(String(value)).slice(0, 80)}`,
    );
  return origin;
}

/** Tokens are sent in a header: visible ASCII, and long enough not to be guessed. */
const TOKEN = /^[\x21-\x7e]{16,256}$/;

/** `controlToken` (CLI `--control-token`, MATCH_VENUE_SIM_CONTROL_TOKEN). Never echoes the value. */
export function checkControlToken(value: string, option = 'controlToken'): string {
  if (typeof value !== 'string' || !TOKEN.test(value))
    throw new RangeError(
      `${option} must be 16 to 256 visible ASCII characters (no spaces); the value given is not`,
    );
  return value;
}
