import { WebhookError } from './errors.js';

/** What a verifier accepts as a body: the bytes exactly as received. */
export type RawBody = string | Uint8Array | ArrayBuffer;

const NOT_RAW_HINT =
  'Pass the raw request body (string, Buffer or Uint8Array) exactly as received: signatures cover the ' +
  "original bytes, which a parsed object no longer has. With Express use express.raw({ type: '*/*' }) " +
  'on the webhook route (not express.json()).';

/**
 * Normalises a raw body to bytes. Anything else (notably an object produced by a JSON body parser)
 * fails with `WEBHOOK_BODY_NOT_RAW`, because re-serialising it cannot reproduce the signed bytes.
 */
export function rawBodyBytes(body: unknown): Uint8Array {
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  const got = body === null ? 'null' : body === undefined ? 'undefined' : `a ${typeof body}`;
  throw new WebhookError('WEBHOOK_BODY_NOT_RAW', `Webhook body is ${got}, not the raw body. ${NOT_RAW_HINT}`);
}

/** Decodes a raw body as UTF-8 text (fatal on malformed sequences: a signed body is valid UTF-8). */
export function rawBodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(rawBodyBytes(body));
  } catch (error) {
    if (error instanceof WebhookError) throw error;
    throw new WebhookError('WEBHOOK_BODY_INVALID', 'Webhook body is not valid UTF-8.', { cause: error });
  }
}
