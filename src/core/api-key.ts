/**
 * Platform API keys: `TEST_API_KEY:<id>:<secret>` and `LIVE_API_KEY:<id>:<secret>`.
 *
 * Parsing never keeps the secret: the parsed value cannot leak it through logging, JSON,
 * string conversion or an error report, because it does not hold it. Error messages
 * describe what is wrong by position and length only, never by content, since a
 * malformed key is often a real secret pasted in the wrong place.
 */

import { MatchVenueError } from './error.js';

export type ApiKeyKind = 'TEST_API' | 'LIVE_API';

/** Which platform environment a key belongs to; test keys work only against sandbox and testnets. */
export type ApiKeyEnvironment = 'sandbox' | 'production';

export const API_KEY_PREFIXES: Readonly<Record<ApiKeyKind, string>> = {
  TEST_API: 'TEST_API_KEY',
  LIVE_API: 'LIVE_API_KEY',
};

const KIND_BY_PREFIX: ReadonlyMap<string, ApiKeyKind> = new Map([
  ['TEST_API_KEY', 'TEST_API'],
  ['LIVE_API_KEY', 'LIVE_API'],
]);

// Visible ASCII only: whitespace or control characters in a key almost always mean a copy/paste
// or .env quoting accident, and would otherwise surface later as an opaque 401.
const PART = /^[\x21-\x7e]+$/;

export interface ParsedApiKey {
  readonly kind: ApiKeyKind;
  /** The prefix as written in the key, e.g. `TEST_API_KEY`. */
  readonly prefix: string;
  /** The key id (the middle part); not secret. */
  readonly id: string;
  /** A hint only: the key kind says which environment accepts it. */
  readonly environment: ApiKeyEnvironment;
  /** `PREFIX:ID:***`, safe to log. */
  readonly redacted: string;
}

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

class ParsedKey implements ParsedApiKey {
  readonly kind: ApiKeyKind;
  readonly prefix: string;
  readonly id: string;
  readonly environment: ApiKeyEnvironment;
  readonly redacted: string;

  constructor(kind: ApiKeyKind, id: string) {
    this.kind = kind;
    this.prefix = API_KEY_PREFIXES[kind];
    this.id = id;
    this.environment = kind === 'TEST_API' ? 'sandbox' : 'production';
    this.redacted = `${this.prefix}:${id}:***`;
  }

  toString(): string {
    return this.redacted;
  }

  toJSON(): { kind: ApiKeyKind; prefix: string; id: string; environment: ApiKeyEnvironment } {
    return { kind: this.kind, prefix: this.prefix, id: this.id, environment: this.environment };
  }

  [inspectSymbol](): string {
    return `ParsedApiKey { ${this.redacted} (${this.environment}) }`;
  }
}

/**
 * Thrown for a key that is not `PREFIX:ID:SECRET`. The message and every own property are free
 * of the key's content (only counts and positions), so the error is safe to log or report.
 */
export class InvalidApiKeyError extends MatchVenueError {
  static override readonly kind = 'MV_INVALID_API_KEY';
  override name = 'InvalidApiKeyError';
  declare readonly code: string;
  /** A stable, machine-readable reason. */
  readonly reason:
    | 'missing'
    | 'bearer-prefix'
    | 'whitespace'
    | 'part-count'
    | 'unknown-prefix'
    | 'empty-part'
    | 'invalid-characters';

  constructor(reason: InvalidApiKeyError['reason'], detail: string) {
    super(
      `Invalid API key: ${detail}. Expected TEST_API_KEY:<id>:<secret> or LIVE_API_KEY:<id>:<secret> ` +
        '(the key itself is not shown).',
    );
    this.reason = reason;
  }
}

/** Parses a platform API key; throws {@link InvalidApiKeyError} (which never contains the key). */
export function parseApiKey(key: unknown): ParsedApiKey {
  if (typeof key !== 'string' || key.length === 0) {
    throw new InvalidApiKeyError('missing', 'no key given (set apiKey or MATCH_VENUE_API_KEY)');
  }
  if (/^bearer\s/i.test(key)) {
    throw new InvalidApiKeyError('bearer-prefix', "pass the key without the 'Bearer ' prefix");
  }
  if (key.trim() !== key) {
    throw new InvalidApiKeyError('whitespace', 'the key has leading or trailing whitespace');
  }
  const parts = key.split(':');
  if (parts.length !== 3) {
    throw new InvalidApiKeyError(
      'part-count',
      `expected 3 colon-separated parts, found ${parts.length} (key length ${key.length})`,
    );
  }
  const [prefix, id, secret] = parts as [string, string, string];
  const kind = KIND_BY_PREFIX.get(prefix);
  if (kind === undefined) {
    // The prefix is not echoed: a key pasted without its prefix puts secret material first.
    throw new InvalidApiKeyError('unknown-prefix', 'the first part is neither TEST_API_KEY nor LIVE_API_KEY');
  }
  if (id.length === 0 || secret.length === 0) {
    throw new InvalidApiKeyError('empty-part', `the ${id.length === 0 ? 'id' : 'secret'} part is empty`);
  }
  if (!PART.test(id) || !PART.test(secret)) {
    throw new InvalidApiKeyError(
      'invalid-characters',
      `the ${PART.test(id) ? 'secret' : 'id'} part contains whitespace or non-printable characters`,
    );
  }
  return new ParsedKey(kind, id);
}

/** True when `key` parses; never throws. */
export function isWellFormedApiKey(key: unknown): key is string {
  try {
    parseApiKey(key);
    return true;
  } catch {
    return false;
  }
}
