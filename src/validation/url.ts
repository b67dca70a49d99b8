/**
 * The `x-url` rule of the OpenAPI: the schema's `pattern` is the whole rule as every tool reads it
 * (scheme, loopback hosts for plain http, no credentials, URI characters only), and the value must
 * also be a URL the WHATWG parser reads, as `fetch` will post to it, which no pattern can state.
 * The rule lives in the document once; this only runs it.
 */
import { type Rule, refine } from './scalars.js';

/** Whether `value` is a URL the schema takes: its `pattern` matches and the WHATWG parser reads it. */
export function isAllowedUrl(pattern: RegExp, value: string): boolean {
  return pattern.test(value) && URL.canParse(value);
}

/** The `x-url` rule as a rule of a string check, with `message` (the schema's `x-rule`). */
export function url(pattern: RegExp, message: string): Rule {
  return refine((value: string) => isAllowedUrl(pattern, value), message);
}
