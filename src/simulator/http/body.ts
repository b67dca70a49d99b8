import { andThen, type MaybeAsync } from './maybe-async.js';
import { type ErrorDetail, HttpError, invalidRequest } from './responses.js';

/**
 * Largest request body the simulator reads (1 MiB). Venue and platform bodies are well under 1 KB;
 * the bound keeps a hostile or broken client from holding memory, over node:http and in process.
 */
export const MAX_BODY_BYTES = 1_048_576;

/**
 * Largest `POST /_sim/restore` body, and its default (`restoreLimitBytes`, the CLI's
 * `--restore-limit-mb` lower it): the longest text a JavaScript string holds (2^29 - 24, V8's
 * limit), so every snapshot the simulator can write is read back, however long the run (a busy
 * market's 1,200 auctions: 165 MB). A body is counted as its bytes arrive, so a larger one is
 * refused without being held; decoded, no body within it is too long for a string.
 */
export const MAX_RESTORE_BYTES = 2 ** 29 - 24;

/** Deepest JSON nesting accepted in a body; every real body is at most 3 levels deep. */
export const MAX_JSON_DEPTH = 64;

export function bodyTooLarge(limit = MAX_BODY_BYTES): HttpError {
  return new HttpError(413, -1, `Request body larger than ${limit} bytes`);
}

/** The one media type of request bodies (the contract's `requestBody` content), with its one charset. */
export const JSON_CONTENT_TYPE = 'application/json';

/**
 * `application/json`, in any case, with parameters allowed only as a UTF-8 charset: JSON text
 * exchanged between systems is UTF-8 (RFC 8259 8.1), and the body is decoded as UTF-8 whatever
 * the header says, so a header naming another charset would be a promise the reading breaks.
 */
export function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  // What nearly every client sends, accepted without the split below.
  if (header === JSON_CONTENT_TYPE) return true;
  const [type = '', ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  if (type !== JSON_CONTENT_TYPE) return false;
  return params.every((param) => param === '' || /^charset="?utf-8"?$/.test(param));
}

/** 415 code -1: a body sent as anything but JSON, named with the type required. */
export function unsupportedMediaType(header: string | null): HttpError {
  const got = header === null ? 'no Content-Type' : `Content-Type ${header}`;
  return new HttpError(
    415,
    -1,
    `Unsupported media type: got ${got}; request bodies must be sent as ${JSON_CONTENT_TYPE} (charset utf-8 allowed)`,
  );
}

/** 400 code 2: a body on an operation that takes none (the contract gives it no requestBody). */
export function unexpectedBody(): HttpError {
  return invalidRequest('Invalid request: this operation takes no request body', [
    { error: 'unexpected_body', message: 'must be empty: the operation takes no body', location: 'body' },
  ]);
}

const decoder = new TextDecoder();

/**
 * A body the node:http binding has already read within MAX_BODY_BYTES, with its Content-Type: what
 * the routes read instead of a web Request's stream on that path. Decoded as a Request's text()
 * decodes (TextDecoder: a leading BOM dropped, bad bytes replaced), so both paths see one text.
 */
export class ReadBody {
  readonly text: string;
  constructor(
    bytes: Uint8Array,
    readonly contentType: string | null,
  ) {
    this.text = bytes.length === 0 ? '' : decoder.decode(bytes);
  }
}

/** What the body rules read: a web Request (in process, msw) or a node body already read. */
export type BodySource = Request | ReadBody;

function refuseAnyBody(text: string): void {
  if (text.length > 0) throw unexpectedBody();
}

/**
 * Refuses any body byte on an operation that takes no body: a client sending one has built the
 * request for another operation, or expects the body to count, and should hear that it does not.
 * Synchronous for a body node:http has already read (maybe-async.ts).
 */
export function assertNoBody(req: BodySource): MaybeAsync<void> {
  return andThen(readBodyText(req), refuseAnyBody);
}

/**
 * The request body as text, read once and at most MAX_BODY_BYTES (else 413). A body stream that
 * fails is the caller's side giving up, so it is a 400, never an unexpected 500. A body node:http
 * has already read is its text at once, with no Promise (maybe-async.ts).
 */
export function readBodyText(req: BodySource): MaybeAsync<string> {
  return req instanceof ReadBody ? req.text : readStream(req);
}

async function readStream(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  if (Number(req.headers.get('content-length')) > limit) {
    await req.body?.cancel().catch(() => undefined);
    throw bodyTooLarge(limit);
  }
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw bodyTooLarge(limit);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw invalidRequest('Request body could not be read', [
      { error: 'unreadable_body', message: 'the body stream failed before its end', location: 'body' },
    ]);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** True when `text` nests arrays/objects deeper than `limit` (brackets inside strings do not count). */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/** Why a body is not JSON: nothing in it (only whitespace), nested too deeply, or not JSON at all. */
export type JsonFailure = 'empty' | 'too_deep' | 'invalid_json';

export type ParsedJson =
  | { ok: true; value: unknown }
  | { ok: false; reason: JsonFailure; detail: ErrorDetail };

/**
 * The one JSON reading of request bodies (venue, platform and `/_sim/` routes): the body read
 * within MAX_BODY_BYTES, refused with 415 unless sent as JSON, then JSON.parse bounded in depth.
 * Validators, JSON.stringify and error rendering all recurse, so a body nested thousands deep is
 * refused here as bad input instead of overflowing the stack later. Each API words its own answer
 * from the failure. A missing body is no media type at all, so it stays the API's 400 (or `{}`).
 */
export function readJson(req: BodySource, limit = MAX_BODY_BYTES): MaybeAsync<ParsedJson> {
  if (req instanceof ReadBody) return parseJson(req.text, req.contentType);
  return readStream(req, limit).then((text) => parseJson(text, req.headers.get('content-type')));
}

function parseJson(text: string, contentType: string | null): ParsedJson {
  if (text.trim() !== '' && !isJsonContentType(contentType)) throw unsupportedMediaType(contentType);
  return parseJsonText(text);
}

/** {@link readJson}'s parse of text already read, whatever its media type: bounded in depth. */
export function parseJsonText(text: string): ParsedJson {
  if (text.trim() === '')
    return {
      ok: false,
      reason: 'empty',
      detail: { error: 'invalid_json', message: 'body is empty', location: 'body', invalidValue: text },
    };
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    return {
      ok: false,
      reason: 'too_deep',
      detail: {
        error: 'too_deep',
        message: `must not nest arrays or objects deeper than ${MAX_JSON_DEPTH} levels`,
        location: 'body',
        constraints: { maximum: MAX_JSON_DEPTH },
      },
    };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const message = err instanceof Error ? err.message : 'unparseable';
    return {
      ok: false,
      reason: 'invalid_json',
      detail: { error: 'invalid_json', message, location: 'body', invalidValue: text },
    };
  }
}
