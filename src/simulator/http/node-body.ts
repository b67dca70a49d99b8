/**
 * Reading a node:http request's body within bounds, before the dispatch runs: at once when the
 * framing says there is none, from the stream's buffer when it came whole with its headers, else
 * through the stream's events.
 */
import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from './body.js';
import type { MaybeAsync } from './maybe-async.js';

/** A request body as readNodeBody gives it; see there. */
export type NodeBody = Buffer | 'too-large' | undefined;

const NO_BODY = Buffer.alloc(0);

/**
 * The whole request body, read before the handler runs so that an answer given without looking at
 * the body (404, 405, 401) never leaves unread bytes blocking the keep-alive connection.
 * `'too-large'` past `limit` bytes (declared or received); `undefined` when the client went away
 * before the body ended, which is not an error: there is no one left to answer.
 *
 * Issue 23: waiting for 'end' through listeners and a Promise was 7% of the server's busy time
 * under load (`__name`, the keep-names wrapper tsx puts on each named closure, alone 3%). So a request
 * that has no body by its framing (RFC 9112 6.3: neither Content-Length nor Transfer-Encoding, or
 * Content-Length 0) is answered at once, with nothing awaited; a body that arrived whole with its
 * headers (every small POST) is taken from the stream's buffer in one tick; only a body still on
 * its way is read through events.
 */
export function readNodeBody(req: IncomingMessage, limit = MAX_BODY_BYTES): MaybeAsync<NodeBody> {
  const length = req.headers['content-length'];
  if (Number(length) > limit) return 'too-large';
  if (req.complete) return NO_BODY;
  if (req.headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0))
    return NO_BODY;
  // The parser goes on to the body after the 'request' event, in the same tick as the headers.
  return new Promise((resolve) => process.nextTick(takeBody, req, limit, resolve));
}

function takeBody(req: IncomingMessage, limit: number, resolve: (body: NodeBody) => void): void {
  // Node marks a request complete only after this tick, but a Content-Length body whose bytes are
  // all buffered is whole: by its framing nothing more belongs to this request.
  const length = req.headers['content-length'];
  const whole =
    req.complete ||
    (length !== undefined &&
      req.headers['transfer-encoding'] === undefined &&
      req.readableLength === Number(length));
  if (!whole || req.destroyed) readByEvents(req, limit, resolve);
  else if (req.readableLength > limit) resolve('too-large');
  else {
    // Everything the parser pushed, as one Buffer; null when a chunked body was empty.
    const body = req.read() as Buffer | null;
    // Flowing again, the stream ends (and is destroyed) as one read through 'data' does.
    req.resume();
    resolve(body ?? NO_BODY);
  }
}

function readByEvents(req: IncomingMessage, limit: number, resolve: (body: NodeBody) => void): void {
  // Gone before the body could be taken (its 'close' may already have been emitted): no one to answer.
  if (req.destroyed) {
    resolve(undefined);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (value: NodeBody) => {
    if (settled) return;
    settled = true;
    req.off('data', onData);
    resolve(value);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) settle('too-large');
    else chunks.push(chunk);
  };
  req.on('data', onData);
  req.once('end', () => settle(Buffer.concat(chunks, size)));
  req.once('error', () => settle(undefined));
  req.once('close', () => settle(req.complete ? Buffer.concat(chunks, size) : undefined));
}
