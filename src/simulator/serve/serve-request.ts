/**
 * One node:http request of a listening simulator, from its arrival to the request log: who may call
 * (Host, Origin, control token), its route (404, 405), its body read within bounds, the dispatch
 * (no web Request), the answer. listen.ts owns the server and its sockets; this file, each request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../events/logger.js';
import type { AccessPolicy } from '../http/access.js';
import { MAX_BODY_BYTES } from '../http/body.js';
import { type Inbound, type Outcome, requestIdFor, routeRefusal } from '../http/handler.js';
import type { MaybeAsync } from '../http/maybe-async.js';
import { type NodeBody, readNodeBody } from '../http/node-body.js';
import { nodeInbound, rejectTooLarge, writeAnswer, writeJsonError, writeResponse } from '../http/node-io.js';
import {
  clientCorrelation,
  errorCodeOf,
  type RequestLogEntry,
  type RequestLogHook,
} from '../http/request-log.js';
import { HttpError } from '../http/responses.js';
import type { UiEventStream } from '../ui/event-stream.js';
import { isUiPath, serveUi } from '../ui/serve.js';
import type { WsSimulator } from '../ws/server.js';

/** What the node:http + WebSocket binding serves: the dispatch behind the web handler, and the socket layer's port. */
export interface ServedSimulator extends WsSimulator {
  dispatch(req: Inbound, requestId: string): MaybeAsync<Outcome>;
  readonly logger: Logger;
  /** The largest `POST /_sim/restore` body read. */
  readonly restoreLimitBytes: number;
}

export type Report = (status: number | null, code?: number) => void;

export const ignore: Report = () => {};

/**
 * One request: who may call (Host, Origin, control token), then its route (404, 405), then its body
 * read within bounds, then the dispatch (no web Request), then the answer. Issue 23: each step runs
 * at once when it can (maybe-async.ts): a GET without a body is answered within the 'request' event
 * and a small POST one tick later, with no Promise in between.
 */
export function serve(
  sim: ServedSimulator,
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
  access: AccessPolicy,
  report: Report,
  ui: UiEventStream | undefined,
): MaybeAsync<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const path = pathOf(req.url);
  const admission = access.admit(method, path, req.headers, req.url);
  // An answer given before the body is read leaves the body to node:http, which discards it once
  // the answer is sent (the keep-alive connection goes on); an oversized one is not held in memory.
  if (admission.refused) {
    const { status, message } = admission.refused;
    report(writeJsonError(req, res, status, -1, message) ? status : null, -1);
    return;
  }
  if (admission.preflight) {
    res.writeHead(204, access.corsHeaders(admission.corsOrigin, req.headers));
    res.end();
    report(204);
    return;
  }
  const cors = access.corsHeaders(admission.corsOrigin);
  if (ui && isUiPath(path)) {
    report(serveUi(ui, req, res, method, path, cors));
    return;
  }
  // Method before body (RFC 9110 15.5.6): a path the target names gets its 404 or 405 whatever the
  // body holds or weighs. A target that is no URL ('') is the dispatch's 400.
  const refused = path === '' ? undefined : routeRefusal(method, path);
  if (refused) {
    const { status, code, message, headers } = refused;
    report(
      writeJsonError(req, res, status, code, message, undefined, { ...cors, ...headers }) ? status : null,
      code,
    );
    return;
  }
  // A snapshot is far larger than any other body: `POST /_sim/restore` from a caller the access
  // rules admitted above (the control token, where one is required) is read up to the restore
  // limit, still counted as it arrives; every other body up to MAX_BODY_BYTES.
  const limit = method === 'POST' && path === RESTORE_PATH ? sim.restoreLimitBytes : MAX_BODY_BYTES;
  const body = readNodeBody(req, limit);
  const tokenGiven = admission.tokenGiven;
  if (body instanceof Promise)
    return body.then((read) => answer(sim, req, res, read, host, tokenGiven, cors, report, limit));
  return answer(sim, req, res, body, host, tokenGiven, cors, report, limit);
}
const RESTORE_PATH = '/_sim/restore';

function answer(
  sim: ServedSimulator,
  req: IncomingMessage,
  res: ServerResponse,
  body: NodeBody,
  host: string,
  tokenGiven: boolean,
  cors: Record<string, string> | undefined,
  report: Report,
  limit: number,
): MaybeAsync<void> {
  if (body === undefined) {
    report(null);
    return;
  }
  if (body === 'too-large') {
    report(rejectTooLarge(req, res, limit) ? 413 : null, -1);
    return;
  }
  let inbound: Inbound;
  try {
    inbound = nodeInbound(req, host, body, tokenGiven);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    const sent = writeJsonError(req, res, err.status, err.code, err.message, err.errors, cors);
    report(sent ? err.status : null, err.code);
    return;
  }
  const requestId = requestIdFor(inbound.header('x-request-id'));
  try {
    const outcome = sim.dispatch(inbound, requestId);
    const written =
      outcome instanceof Promise
        ? outcome.then((done) => deliver(done, requestId, req, res, cors, report))
        : deliver(outcome, requestId, req, res, cors, report);
    if (written instanceof Promise) return written.catch((err: unknown) => lost(sim, req, report, err));
  } catch (err) {
    lost(sim, req, report, err);
  }
}

/** Writes the dispatch's answer and reports it to the request log. */
function deliver(
  answer: Outcome,
  requestId: string,
  req: IncomingMessage,
  res: ServerResponse,
  cors: Record<string, string> | undefined,
  report: Report,
): MaybeAsync<void> {
  if (answer instanceof Response)
    return writeResponse(answer, req, res, { ...cors, 'x-request-id': requestId }).then((written) => {
      const code = errorCodeOf(answer.status, answer.headers.get('content-type'), written ?? undefined);
      report(written === null ? null : answer.status, code);
    });
  const written = writeAnswer(answer, requestId, req, res, cors);
  // The request log reads the error code back from the body; nothing is parsed without a log.
  const code =
    written && answer.status >= 400
      ? errorCodeOf(answer.status, answer.headers['content-type'], Buffer.from(written))
      : undefined;
  report(written === null ? null : answer.status, code);
}

/** The dropResponse fault (or a failure to even build an answer): the client sees a dead socket. */
function lost(sim: ServedSimulator, req: IncomingMessage, report: Report, err: unknown): void {
  if (!(err instanceof TypeError)) sim.logger.error('simulator handler rejected', err);
  req.socket.destroy();
  report(null);
}

const PLAIN_PATH = /^\/(?!\/)[\w\-/]*$/;

/** The path the handler will route on (the same parse as toRequest's); '' when there is none. */
function pathOf(target: string | undefined): string {
  // The common target (plain segments, perhaps a query) is its own path; the parser handles the rest.
  const end = target?.indexOf('?') ?? -1;
  const raw = end < 0 ? target : target?.slice(0, end);
  if (raw && PLAIN_PATH.test(raw)) return raw;
  try {
    return new URL(target ?? '/', 'http://localhost').pathname;
  } catch {
    return '';
  }
}

/** The request log's reporter for one request (a no-op without a hook). */
export function reporter(
  sim: ServedSimulator,
  hook: RequestLogHook | undefined,
  method: string,
  path: string,
  headers: IncomingMessage['headers'] = {},
): Report {
  if (!hook) return () => {};
  const started = performance.now();
  return (status, code) => {
    const entry: RequestLogEntry = { kind: 'http', method, path, status, ms: performance.now() - started };
    Object.assign(entry, clientCorrelation(headers));
    if (code !== undefined && status !== null && status >= 400) entry.code = code;
    safely(sim, hook, entry);
  };
}

export function failed(sim: ServedSimulator, req: IncomingMessage, report: Report, err: unknown): void {
  sim.logger.error('simulator request failed', err);
  req.socket.destroy();
  report(null);
}

export function safely(sim: ServedSimulator, hook: RequestLogHook, entry: RequestLogEntry): void {
  try {
    hook(entry);
  } catch (err) {
    sim.logger.error('request log hook failed', err);
  }
}
