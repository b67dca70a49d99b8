/**
 * Redaction of secrets (API keys, tickets, tokens, credential headers) in text and values: the
 * SDK's logger (core/logger.ts) and every error on the SDK's base (base-error.ts) pass through it.
 */
import { API_KEY_PREFIX_PATTERN } from './api-key.js';

const REDACTED = '[redacted]';
const SECRET_KEYS =
  /^(authorization|proxy-authorization|ticket|apikey|api_key|x-api-key|secret|password|token)$/i;
// Platform API keys: TEST_API_KEY:<id>:<secret> / LIVE_API_KEY:<id>:<secret> (the contract's prefixes).
const API_KEY_TEXT = new RegExp(`\\b(${API_KEY_PREFIX_PATTERN}):[^\\s"',;]+`, 'g');
// WebSocket subprotocol carrying the ticket.
const TICKET_PROTOCOL = /\bticket\.[A-Za-z0-9\-_.=]+/g;
// Tickets are JWTs; any compact JWS/JWT in text is treated as a secret.
const JWT_TEXT = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const BEARER_TEXT = /\b(Bearer)\s+[^\s"',;]+/gi;

// The secret part of a platform key, which a server may echo on its own.
const KEY_SECRET_PART = new RegExp(`^(?:${API_KEY_PREFIX_PATTERN}):[^:]*:(.+)$`);

/**
 * The exact strings to remove: each secret, and for a platform key also its secret part. Longest
 * first, so a whole key becomes one `[redacted]` rather than a key with a redacted tail.
 */
function secretFragments(secrets: readonly string[]): string[] {
  const out: string[] = [];
  for (const secret of secrets) {
    if (secret.length >= 4) out.push(secret);
    const part = KEY_SECRET_PART.exec(secret)?.[1];
    // Short parts are skipped: replacing a few common characters everywhere would garble text.
    if (part !== undefined && part.length >= 8) out.push(part);
  }
  return out.sort((a, b) => b.length - a.length);
}

// What each pattern above needs to be present (looser: any case); a string without any is returned
// as it is after one test instead of four replaces, which is most strings of a recorded body.
const MAYBE_SECRET = new RegExp(`${API_KEY_PREFIX_PATTERN}|bearer|ticket\\.|eyJ`, 'i');

/**
 * {@link redactText} bound to `secrets`, their fragments worked out once: for redacting many
 * strings with the same secrets (every string of a cassette line).
 */
export function textRedactor(secrets: readonly string[] = []): (text: string) => string {
  const fragments = secretFragments(secrets);
  return (text) => {
    let out = text;
    for (const secret of fragments) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    if (!MAYBE_SECRET.test(out)) return out;
    return out
      .replace(API_KEY_TEXT, `$1:${REDACTED}`)
      .replace(BEARER_TEXT, `$1 ${REDACTED}`)
      .replace(TICKET_PROTOCOL, `ticket.${REDACTED}`)
      .replace(JWT_TEXT, REDACTED);
  };
}

/** Removes API keys, bearer credentials, tickets and JWTs from a string. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  return textRedactor(secrets)(text);
}

// Response headers whose whole value is a credential or session state, whatever it looks like.
const SECRET_HEADER =
  /^(?:authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|apikey)$|token|secret|passw|ticket|credential|session/i;

/**
 * Copy of response headers safe to keep on an error: credential and cookie headers replaced, and
 * every other value cleared of `secrets` and secret-looking text (a server may echo the key).
 */
export function redactHeaders(
  headers: Readonly<Record<string, string>>,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADER.test(name) ? REDACTED : redactText(value, secrets);
  }
  return out;
}

/** Deep copy of `value` with secret fields and secret-looking text replaced. */
export function redact(
  value: unknown,
  secrets: readonly string[] = [],
  seen = new WeakSet<object>(),
): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (value instanceof Error) {
    return { name: value.name, message: redactText(value.message, secrets) };
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets, seen));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEYS.test(key) ? REDACTED : redact(v, secrets, seen);
  }
  return out;
}
