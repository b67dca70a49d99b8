/** Success and error bodies of the wire format: `{data}` or `{code, message[, errors]}`. */
import { clip, ECHO_MAX, type ErrorDetail, showValue } from '../../contract/error-details.js';

export type { ErrorDetail } from '../../contract/error-details.js';

/**
 * An answer as plain data. The venue routes build this rather than a web Response: the node:http
 * binding writes it straight to the socket, and only the web handler turns it into a Response
 * (building one and reading it back was a third of the server's time under load, issue 23).
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** JSON text; null for an answer without a body (204). */
  body: string | null;
}

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function answerToResponse(answer: Answer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function dataResponse(status: number, data: unknown): Response {
  return jsonResponse(status, { data });
}

/** Every error body fits in this many bytes, whatever the request held. */
export const ERROR_BODY_MAX_BYTES = 4096;
const MESSAGE_MAX = 300;
/** An error body lists at most this many `errors` entries (the first ones found). */
export const MAX_ERROR_ENTRIES = 20;
const MAX_ITEMS = 10;

// Constraints can carry client input too (zod lists unrecognized keys), so they are clipped alike.
function clipDeep(value: unknown, max: number, depth = 0): unknown {
  if (typeof value === 'string') return clip(value, max);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 2) return undefined;
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => clipDeep(v, max, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, MAX_ITEMS))
    out[clip(k, max)] = clipDeep(v, max, depth + 1);
  return out;
}

// Entries are typed as text, but one built from hostile input (or by a route's mistake) may carry
// any value: it is shown as text rather than letting the renderer throw, which would be a 500.
const asText = (value: unknown, max: number): string =>
  clip(typeof value === 'string' ? value : (showValue(value, max) ?? ''), max);

function clipDetail(d: ErrorDetail, max: number): ErrorDetail {
  const out: ErrorDetail = { error: asText(d.error, max), message: asText(d.message, max) };
  if (d.location !== undefined) out.location = asText(d.location, max);
  if (d.invalidValue !== undefined) out.invalidValue = asText(d.invalidValue, max);
  if (d.constraints !== undefined) out.constraints = clipDeep(d.constraints, max) as Record<string, unknown>;
  return out;
}

const encoder = new TextEncoder();

// No Buffer: the handler also runs in browsers under msw. A UTF-16 unit is at most 3 UTF-8 bytes.
function fits(text: string): boolean {
  return text.length * 3 <= ERROR_BODY_MAX_BYTES || encoder.encode(text).length <= ERROR_BODY_MAX_BYTES;
}

/**
 * The one renderer of error bodies (venue, platform, control and transport answers alike): every
 * string clipped, at most MAX_ERROR_ENTRIES entries, and the whole under ERROR_BODY_MAX_BYTES. Clipped
 * strings can still grow sixfold when JSON escapes control characters, so the limit is halved
 * until the body fits rather than trusted.
 */
export function errorBodyText(code: number, message: string, errors?: readonly ErrorDetail[]): string {
  const entries = errors?.slice(0, MAX_ERROR_ENTRIES);
  for (let max = ECHO_MAX; ; max = Math.floor(max / 2)) {
    const body: { code: number; message: string; errors?: ErrorDetail[] } = {
      code,
      message: asText(message, max === ECHO_MAX ? MESSAGE_MAX : max),
    };
    if (entries) body.errors = entries.map((d) => clipDetail(d, max));
    const text = JSON.stringify(body);
    if (max === 0 || fits(text)) return text;
  }
}

export function errorResponse(
  status: number,
  code: number,
  message: string,
  errors?: readonly ErrorDetail[],
  headers: Record<string, string> = {},
): Response {
  return new Response(errorBodyText(code, message, errors), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Raised by route code for any non-2xx answer; the handler renders it. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toResponse(): Response {
    return answerToResponse(this.toAnswer());
  }

  toAnswer(): Answer {
    return {
      status: this.status,
      headers: { 'content-type': 'application/json', ...this.headers },
      body: errorBodyText(this.code, this.message, this.errors),
    };
  }
}

/** Code 2 with the platform's extended body. */
export function invalidRequest(message: string, errors: ErrorDetail[]): HttpError {
  return new HttpError(400, 2, message, errors);
}
