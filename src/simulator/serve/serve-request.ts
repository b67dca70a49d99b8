/**
 * One node:http request of a listening simulator, from its arrival to the request log: who may call
 * (Host, Origin, control token), its route (404, 405), its body read within bounds, the dispatch
 * (no web Request), the answer. listen.ts owns the server and its sockets; this file, each request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../events/logger.js';
import type { AccessPolicy } from '../http/access.js';
import { MAX_BODY_BYTES } from '../http/body.js';
import { type Inbound, type Outcome, requestIdFor } from '../http/handler.js';
import type { MaybeAsync } from '../http/maybe-async.js';
import { type NodeBody, readNodeBody } from '../http/node-body.js';
import {
  nodeInbound,
  type RequestTarget,
  rejectTooLarge,
  requestTarget,
  writeAnswer,
  writeJsonError,
  writeResponse,
} from '../http/node-io.js';
import type { PlatformPort } from '../http/port.js';
import { bodyLimitOf, type ResolvedRoute, resolveRoute } from '../http/resolve-route.js';
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
  /** Its routes beside the venue's and the controls' (resolve-route.ts). */
  readonly platform: PlatformPort;
  /** Serves a route resolved here (no web Request). */
  dispatch(req: Inbound, requestId: string, route: ResolvedRoute): MaybeAsync<Outcome>;
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
  // The target read once; one that is no URL has no path ('') and gets its 400 once the body is read.
  const target = requestTarget(req, host);
  const path = target instanceof HttpError ? '' : target.path;
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
  // body holds or weighs. The route, resolved once here, is what the dispatch serves.
  let next: Routed | HttpError;
  let limit = MAX_BODY_BYTES;
  if (target instanceof HttpError) next = target;
  else {
    const route = resolveRoute(sim.platform, method, path);
    if (route instanceof HttpError) {
      const { status, code, message, headers } = route;
      report(
        writeJsonError(req, res, status, code, message, undefined, { ...cors, ...headers }) ? status : null,
        code,
      );
      return;
    }
    // Its body read within the route's limit (the restore limit for a snapshot, as admitted above).
    limit = bodyLimitOf(route, sim.restoreLimitBytes);
    // A request without the Host HTTP/1.1 requires still gets its route's 404, 405 or body limit.
    next = target.missingHost ?? { target, route };
  }
  const body = readNodeBody(req, limit);
  const tokenGiven = admission.tokenGiven;
  if (body instanceof Promise)
    return body.then((read) => answer(sim, req, res, read, host, next, tokenGiven, cors, report, limit));
  return answer(sim, req, res, body, host, next, tokenGiven, cors, report, limit);
}

/** A request's target and its route, once both are known good; its body comes next. */
interface Routed {
  target: RequestTarget;
  route: ResolvedRoute;
}

function answer(
  sim: ServedSimulator,
  req: IncomingMessage,
  res: ServerResponse,
  body: NodeBody,
  host: string,
  next: Routed | HttpError,
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
  if (next instanceof HttpError) {
    const sent = writeJsonError(req, res, next.status, next.code, next.message, next.errors, cors);
    report(sent ? next.status : null, next.code);
    return;
  }
  const inbound = nodeInbound(req, host, next.target, body, tokenGiven);
  const requestId = requestIdFor(inbound.header('x-request-id'));
  try {
    const outcome = sim.dispatch(inbound, requestId, next.route);
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
