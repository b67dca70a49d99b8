/**
 * The redaction rule every cassette writer applies to a line (docs/CASSETTES.md, Redaction): the
 * recorder (core/record-entry.ts, loaded only by a recording client), a replay reading a live
 * request into a cassette's shape.
 */
import { CASSETTE_REDACTED, type CassetteJson } from './cassette.js';
import { textRedactor } from './redact.js';

// Field names whose value is a secret wherever they appear in a recorded body or frame: the
// platform's key and token names (contract/redact.ts's), the ticket, and the signature material
// of SNS messages and v2 deliveries (the verified message is kept; what proved it is not).
const SECRET_FIELD =
  /^(?:authorization|proxy-authorization|ticket|apikey|api_key|x-api-key|secret|password|token|signature|signingcerturl|signatureversion|x-circle-signature)$/i;

/**
 * `value` with every secret replaced by `[redacted]`: fields named as secrets (at any depth), and
 * in every string the API keys, bearer credentials, tickets and JWTs that contract/redact.ts finds,
 * plus the exact `secrets` given (the recording client's key). Ids and amounts are kept.
 */
export function redactForCassette(value: CassetteJson, secrets: readonly string[] = []): CassetteJson {
  return redactWith(value, textRedactor(secrets));
}

function redactWith(value: CassetteJson, text: (text: string) => string): CassetteJson {
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) return value.map((item) => redactWith(item, text));
  if (value === null || typeof value !== 'object') return value;
  const out: { [key: string]: CassetteJson } = {};
  for (const [name, item] of Object.entries(value)) {
    out[name] = SECRET_FIELD.test(name) && item !== null ? CASSETTE_REDACTED : redactWith(item, text);
  }
  return out;
}
