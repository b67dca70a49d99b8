/**
 * The `x-url` rule of the OpenAPI: a URL as a WHATWG URL parser reads it (what `fetch` will post
 * to), without credentials, spaces or control characters, on an allowed scheme. A pattern can only approximate that; the
 * document keeps one for other tools, and the generator holds the two to the same sample URLs.
 */
import { type Rule, refine } from './scalars.js';

export interface UrlRule {
  /** Schemes taken on any host, without the colon (`https`). */
  schemes: readonly string[];
  /** Hosts on which plain `http` is taken as well (loopback hosts, for local testing). */
  httpHosts?: readonly string[];
}

// `format: uri` (RFC 3986) has no spaces or control characters; the WHATWG parser would drop a
// tab or newline and percent-encode the rest, so a check on the parsed URL alone would take them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
const NOT_IN_A_URI = /[\u0000-\u0020\u007f]/;

/** Whether `value` is a URL `rule` takes. */
export function isAllowedUrl(rule: UrlRule, value: string): boolean {
  if (NOT_IN_A_URI.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return false;
  const scheme = url.protocol.slice(0, -1);
  return (
    rule.schemes.includes(scheme) || (scheme === 'http' && (rule.httpHosts ?? []).includes(url.hostname))
  );
}

/** The `x-url` rule as a rule of a string check, with `message` (the schema's `x-rule`). */
export function url(rule: UrlRule, message: string): Rule {
  return refine((value: string) => isAllowedUrl(rule, value), message);
}
