/**
 * Platform API keys: `TEST_API_KEY:<id>:<secret>` and `LIVE_API_KEY:<id>:<secret>`.
 *
 * The grammar is the contract's (src/contract/api-key.ts); this file gives it the SDK's shape:
 * a parsed value that cannot leak the secret through logging, JSON, string conversion or an error
 * report, because it does not hold it, and InvalidApiKeyError for a key that does not parse.
 */

import {
  type ApiKeyEnvironment,
  type ApiKeyFault,
  type ApiKeyKind,
  type ApiKeyParts,
  readApiKey,
} from '../contract/api-key.js';
import { MatchVenueError } from './error.js';

export {
  API_KEY_PREFIXES,
  type ApiKeyEnvironment,
  type ApiKeyFault,
  type ApiKeyKind,
  isWellFormedApiKey,
} from '../contract/api-key.js';

/**
 * A well-formed key's parts, without the secret: `String(key)`, `JSON.stringify` and `util.inspect`
 * all show the redacted form.
 */
export interface ParsedApiKey extends ApiKeyParts {
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

  constructor(parts: ApiKeyParts) {
    this.kind = parts.kind;
    this.prefix = parts.prefix;
    this.id = parts.id;
    this.environment = parts.environment;
    this.redacted = `${this.prefix}:${this.id}:***`;
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
  /** The class name. */
  override name = 'InvalidApiKeyError';
  /** A stable, machine-readable reason. */
  readonly reason: ApiKeyFault;

  constructor(reason: ApiKeyFault, detail: string) {
    super(
      `Invalid API key: ${detail}. Expected TEST_API_KEY:<id>:<secret> or LIVE_API_KEY:<id>:<secret> ` +
        '(the key itself is not shown).',
    );
    this.reason = reason;
  }
}

/** Parses a platform API key; throws {@link InvalidApiKeyError} (which never contains the key). */
export function parseApiKey(key: unknown): ParsedApiKey {
  const reading = readApiKey(key);
  if (!reading.ok) throw new InvalidApiKeyError(reading.reason, reading.detail);
  return new ParsedKey(reading);
}
