/**
 * The platform API-key grammar: `TEST_API_KEY:<id>:<secret>` and `LIVE_API_KEY:<id>:<secret>`.
 * Part of the contract layer: the SDK checks a key with it before sending anything (core/api-key.ts
 * turns a fault into InvalidApiKeyError), and the simulator can check a bearer credential with it.
 *
 * Reading a key never keeps the secret, and a fault's detail describes what is wrong by position
 * and length only, never by content: a malformed key is often a real secret pasted in the wrong place.
 */

/** The kind a key's prefix names: `TEST_API_KEY` keys are `TEST_API`, `LIVE_API_KEY` keys `LIVE_API`. */
export type ApiKeyKind = 'TEST_API' | 'LIVE_API';

/** Which platform environment a key belongs to; test keys work only against sandbox and testnets. */
export type ApiKeyEnvironment = 'sandbox' | 'production';

export const API_KEY_PREFIXES: Readonly<Record<ApiKeyKind, string>> = {
  TEST_API: 'TEST_API_KEY',
  LIVE_API: 'LIVE_API_KEY',
};

const KIND_BY_PREFIX: ReadonlyMap<string, ApiKeyKind> = new Map(
  (Object.entries(API_KEY_PREFIXES) as [ApiKeyKind, string][]).map(([kind, prefix]) => [prefix, kind]),
);

/** The prefixes as a regex alternation (`TEST_API_KEY|LIVE_API_KEY`), for finding keys in text. */
export const API_KEY_PREFIX_PATTERN = Object.values(API_KEY_PREFIXES).join('|');

// Visible ASCII only: whitespace or control characters in a key almost always mean a copy/paste
// or .env quoting accident, and would otherwise surface later as an opaque 401.
const PART = /^[\x21-\x7e]+$/;

/**
 * A stable, machine-readable reason a key is refused. No export of the package: the API reference
 * shows the reasons in place (InvalidApiKeyError's `reason`).
 * @inline
 */
export type ApiKeyFault =
  | 'missing'
  | 'bearer-prefix'
  | 'whitespace'
  | 'part-count'
  | 'unknown-prefix'
  | 'empty-part'
  | 'invalid-characters';

/** What a well-formed key says about itself; never the secret. */
export interface ApiKeyParts {
  /** What the prefix says the key is. */
  readonly kind: ApiKeyKind;
  /** The prefix as written in the key, e.g. `TEST_API_KEY`. */
  readonly prefix: string;
  /** The key id (the middle part); not secret. */
  readonly id: string;
  /** A hint only: the key kind says which environment accepts it. */
  readonly environment: ApiKeyEnvironment;
}

export type ApiKeyReading =
  | ({ readonly ok: true } & ApiKeyParts)
  | { readonly ok: false; readonly reason: ApiKeyFault; readonly detail: string };

function fault(reason: ApiKeyFault, detail: string): ApiKeyReading {
  return { ok: false, reason, detail };
}

/** Reads a key against the grammar; never throws, and the answer never holds the secret. */
export function readApiKey(key: unknown): ApiKeyReading {
  if (typeof key !== 'string' || key.length === 0) {
    return fault('missing', 'no key given (set apiKey or MATCH_VENUE_API_KEY)');
  }
  if (/^bearer\s/i.test(key)) return fault('bearer-prefix', "pass the key without the 'Bearer ' prefix");
  if (key.trim() !== key) return fault('whitespace', 'the key has leading or trailing whitespace');
  const parts = key.split(':');
  if (parts.length !== 3) {
    return fault(
      'part-count',
      `expected 3 colon-separated parts, found ${parts.length} (key length ${key.length})`,
    );
  }
  const [prefix, id, secret] = parts as [string, string, string];
  const kind = KIND_BY_PREFIX.get(prefix);
  // The prefix is not echoed: a key pasted without its prefix puts secret material first.
  if (kind === undefined)
    return fault('unknown-prefix', 'the first part is neither TEST_API_KEY nor LIVE_API_KEY');
  if (id.length === 0 || secret.length === 0) {
    return fault('empty-part', `the ${id.length === 0 ? 'id' : 'secret'} part is empty`);
  }
  if (!PART.test(id) || !PART.test(secret)) {
    return fault(
      'invalid-characters',
      `the ${PART.test(id) ? 'secret' : 'id'} part contains whitespace or non-printable characters`,
    );
  }
  return { ok: true, kind, prefix, id, environment: kind === 'TEST_API' ? 'sandbox' : 'production' };
}

/** True when `key` follows the grammar; never throws. */
export function isWellFormedApiKey(key: unknown): key is string {
  return readApiKey(key).ok;
}

/**
 * The keys of the simulator's seeded entities (`TEST_API_KEY:<name>:sim`): fixed so that tests,
 * docs and curl sessions can name them, and so that mock mode has a key when none is given.
 */
export const SEEDED_API_KEYS = {
  burner: 'TEST_API_KEY:burner:sim',
  minter: 'TEST_API_KEY:minter:sim',
  ineligible: 'TEST_API_KEY:ineligible:sim',
  noaccount: 'TEST_API_KEY:noaccount:sim',
} as const;

/** The key mock mode uses when none is given: the seeded burner's. */
export const DEFAULT_MOCK_API_KEY = SEEDED_API_KEYS.burner;
