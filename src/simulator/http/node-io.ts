/**
 * node:http edges of the simulator: turning the request into what the dispatch reads (or a web
 * Request), writing the answer back, and answering what never reaches the handler (framing
 * errors, oversized headers, CONNECT, unknown expectations) with the same JSON error body.
 */
import { type IncomingMessage, maxHeaderSize, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_BODY_BYTES, ReadBody, unexpectedBody } from './body.js';
import { type Inbound, requestIdFor } from './handler.js';
import { withholdKeys } from './key-visibility.js';
import { type Answer, type ErrorDetail, errorBodyText, HttpError } from './responses.js';

/**
 * How long a connection we are closing keeps being read (and discarded) after its error answer.
 * Closing a socket with unread input makes the kernel send RST, which can destroy the answer
 * before the client reads it; draining first lets the answer arrive, then the socket ends cleanly.
 */
const LINGER_MS = 2_000;

// An unusable Host header or request target: the same extended code-2 body as any bad input.
function badTarget(detail: ErrorDetail): HttpError {
  return new HttpError(400, 2, 'Invalid request: malformed request line or Host header', [detail]);
}

// Methods the fetch standard forbids in a Request. No route serves them, so the dispatch answers
// them 405 with the path's `Allow` before any Request is built; refused here should that change.
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The request's URL, from its target and Host; throws HttpError for a missing Host on HTTP/1.1 or
 * a target that is no URL (answered without the handler).
 */
function targetOf(req: IncomingMessage, fallbackHost: string): URL {
  const host = req.headers.host;
  if (host === undefined && req.httpVersion === '1.1') throw noHost();
  try {
    return new URL(req.url ?? '/', `http://${host ?? fallbackHost}`);
  } catch {
    throw invalidTarget(req.url);
  }
}

// RFC 9112 3.2: an HTTP/1.1 request without Host is answered 400 (Node's own answer has no body).
function noHost(): HttpError {
  return badTarget({ error: 'missing_host', message: 'HTTP/1.1 requires a Host header', location: 'host' });
}

function invalidTarget(target: string | undefined): HttpError {
  return badTarget({
    error: 'invalid_url',
    message: 'is not a valid request target',
    location: 'url',
    invalidValue: String(target),
  });
}

/**
 * The node request as a web Request, for the routes that take one (once the dispatch has resolved
 * the route); throws HttpError for what cannot become one.
 */
export function toRequest(req: IncomingMessage, fallbackHost: string, body: Buffer): Request {
  const url = targetOf(req, fallbackHost);
  const method = req.method ?? 'GET';
  if (FORBIDDEN_METHODS.has(method.toUpperCase()))
    throw new HttpError(405, -1, `${method} is not allowed on this server`);
  const headers = new Headers();
  try {
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else headers.set(name, value);
    }
  } catch {
    // A header node:http took but the fetch Headers refuse: as unusable as a bad target, never a 500.
    throw badTarget({ error: 'invalid_header', message: 'is not a valid header', location: 'headers' });
  }
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // A web Request cannot carry a GET or HEAD body, so the route would never see one: refused here,
  // once the route is known (a GET body on a POST-only path is that path's 405).
  if (!hasBody && body.length > 0) throw unexpectedBody();
  return new Request(url, { method, headers, body: hasBody ? new Uint8Array(body) : null });
}

// A target of plain path segments and a plain query: its own path and search, as the URL parser
// would give them (nothing to normalise, nothing to percent-encode), so the parse is skipped.
const PLAIN_TARGET = /^(\/(?!\/)[\w\-/]*)(\?[\w\-.~%&=+:,]*)?$/;

/** The request target read once: the path every step routes on, its query, and its deferred 400. */
export interface RequestTarget {
  readonly path: string;
  /** The query string, `?` included ('' without one). */
  readonly search: string;
  /** An HTTP/1.1 request without Host: answered 400 once the route is found and the body read. */
  readonly missingHost: HttpError | undefined;
}

/**
 * The target's path and query, as toRequest's URL has them; the 400 of a target that is no URL
 * (answered once the body is read). A plain target is its own path and query, whatever the Host:
 * a Host that is no `host[:port]`, the one thing the full parse would refuse besides, is refused by
 * the access rules before the path is used (access.ts).
 */
export function requestTarget(req: IncomingMessage, fallbackHost: string): RequestTarget | HttpError {
  const target = req.url ?? '/';
  const host = req.headers.host;
  const missingHost = host === undefined && req.httpVersion === '1.1' ? noHost() : undefined;
  const plain = PLAIN_TARGET.exec(target);
  if (plain)
    return { path: plain[1] ?? '/', search: plain[2] && plain[2] !== '?' ? plain[2] : '', missingHost };
  try {
    const url = new URL(target, `http://${host ?? fallbackHost}`);
    return { path: url.pathname, search: url.search, missingHost };
  } catch {
    return missingHost ?? invalidTarget(target);
  }
}

/**
 * The node request as the dispatch reads it, without a web Request (issue 23: building one and
 * reading its answer back cost a third of the server's time), over its target read once and
 * refused nothing (requestTarget). `web()` builds the Request (marked by withholdKeys unless the
 * control token came) only for the routes that take one.
 */
export function nodeInbound(
  req: IncomingMessage,
  fallbackHost: string,
  target: RequestTarget,
  body: Buffer,
  tokenGiven: boolean,
): Inbound {
  const method = (req.method ?? 'GET').toUpperCase();
  return new NodeInbound(method, target.path, target.search, req, fallbackHost, body, tokenGiven);
}

/**
 * {@link Inbound} over a node request. A class rather than an object of closures: its methods are
 * shared, where two closures per request were allocated (and, under tsx, renamed) for routes that
 * mostly call neither.
 */
class NodeInbound implements Inbound {
  readonly body: ReadBody;
  private request: Request | undefined;
  constructor(
    readonly method: string,
    readonly path: string,
    readonly search: string,
    private readonly req: IncomingMessage,
    private readonly fallbackHost: string,
    private readonly bytes: Buffer,
    private readonly tokenGiven: boolean,
  ) {
    this.body = new ReadBody(bytes, req.headers['content-type'] ?? null);
  }

  header(name: string): string | null {
    const value = this.req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }

  web(): Request {
    if (this.request) return this.request;
    const web = toRequest(this.req, this.fallbackHost, this.bytes);
    if (!this.tokenGiven) withholdKeys(web);
    this.request = web;
    return web;
  }
}

/** Writes a plain answer (plus `extra` headers: CORS); returns its body, or null when the client has gone. */
export function writeAnswer(
  answer: Answer,
  requestId: string,
  req: IncomingMessage,
  out: ServerResponse,
  extra?: Record<string, string>,
): string | undefined | null {
  if (req.socket.destroyed || out.destroyed) return null;
  const headers: Record<string, string> = { ...extra, ...answer.headers, 'x-request-id': requestId };
  if (answer.body !== null) headers['content-length'] = String(Buffer.byteLength(answer.body));
  out.writeHead(answer.status, headers);
  out.end(answer.body ?? undefined);
  return answer.body ?? undefined;
}

/**
 * Writes `res` (plus `extra` headers: CORS) unless the client has gone: an answer is never attempted
 * on a dead socket. Returns the body written (for the request log), or null when nothing was.
 */
export async function writeResponse(
  res: Response,
  req: IncomingMessage,
  out: ServerResponse,
  extra?: Record<string, string>,
): Promise<Buffer | undefined | null> {
  const headers: Record<string, string | string[]> = { ...extra };
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const setCookie = res.headers.getSetCookie();
  if (setCookie.length) headers['set-cookie'] = setCookie;
  const body = res.body ? Buffer.from(await res.arrayBuffer()) : undefined;
  if (req.socket.destroyed || out.destroyed) return null;
  if (body) headers['content-length'] = String(body.length);
  out.writeHead(res.status, headers);
  out.end(body);
  return body;
}

function jsonHeaders(body: string, requestId: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
  };
}

/**
 * 413 for a body past MAX_BODY_BYTES, then the connection closes. The answer is sent at once; the
 * rest of the body is read and dropped (up to LINGER_MS) before the socket ends, see LINGER_MS.
 */
export function rejectTooLarge(req: IncomingMessage, out: ServerResponse, limit = MAX_BODY_BYTES): boolean {
  if (req.socket.destroyed) return false;
  const body = errorBodyText(-1, `Request body larger than ${limit} bytes`);
  out.writeHead(413, {
    ...jsonHeaders(body, requestIdFor(req.headers['x-request-id'] as string)),
    connection: 'close',
  });
  out.write(body);
  let timer: NodeJS.Timeout | undefined;
  const finish = () => {
    clearTimeout(timer);
    if (!out.writableEnded) out.end();
  };
  if (req.complete) {
    finish();
    return true;
  }
  timer = setTimeout(finish, LINGER_MS).unref();
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
  return true;
}

/** A JSON error on `out` from outside the handler (bad request target, unknown expectation). */
export function writeJsonError(
  req: IncomingMessage,
  out: ServerResponse,
  status: number,
  code: number,
  message: string,
  errors?: ErrorDetail[],
  extra?: Record<string, string>,
): boolean {
  if (req.socket.destroyed) return false;
  const body = errorBodyText(code, message, errors);
  out.writeHead(status, {
    ...extra,
    ...jsonHeaders(body, requestIdFor(req.headers['x-request-id'] as string)),
  });
  out.end(body);
  return true;
}

const answered = new WeakSet<Duplex>();

/** Writes a whole HTTP/1.1 JSON error answer on a raw socket, ends it and lingers (LINGER_MS). */
function endSocketWithJson(
  socket: Duplex,
  status: number,
  code: number,
  message: string,
  errors?: ErrorDetail[],
) {
  answered.add(socket);
  const body = errorBodyText(code, message, errors);
  const head = Object.entries({ ...jsonHeaders(body, requestIdFor(undefined)), connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}

interface ParserError extends Error {
  code?: string;
  reason?: string;
}

/**
 * The server's `clientError`: malformed framing (bad Content-Length, broken chunking, bad request
 * line), oversized headers or a request timeout. Answered as Node would (400 / 431 / 408 / 413,
 * connection closed) but with the JSON error body, when nothing of another answer is on the wire.
 * Returns the status and code answered, if it answered.
 */
export function answerClientError(
  err: ParserError,
  socket: Duplex,
): { status: number; code: number } | undefined {
  // Node's parser repeats its error on every later chunk of a connection already answered.
  if (answered.has(socket) && err.code !== 'ECONNRESET') return undefined;
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return undefined;
  }
  const [status, code, message, errors] = describeClientError(err);
  endSocketWithJson(socket, status, code, message, errors);
  return { status, code };
}

function describeClientError(err: ParserError): [number, number, string, ErrorDetail[]?] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, -1, `Request header fields too large (over ${maxHeaderSize} bytes)`];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, -1, 'Chunk extensions too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, -1, 'The request was not received in time'];
    default: {
      const reason = err.reason ?? err.message;
      return [
        400,
        2,
        `Malformed HTTP request: ${reason}`,
        [{ error: err.code ?? 'invalid_http', message: reason, location: 'request' }],
      ];
    }
  }
}

/**
 * CONNECT (no proxying here): 405 JSON and close, where Node would drop the socket unanswered.
 * Returns whether it answered.
 */
export function refuseConnect(_req: IncomingMessage, socket: Duplex): boolean {
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return false;
  }
  endSocketWithJson(socket, 405, -1, 'CONNECT is not allowed on this server');
  return true;
}
