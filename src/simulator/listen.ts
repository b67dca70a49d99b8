import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AccessOptions, AccessPolicy } from './http/access.js';
import { isLoopbackBind } from './http/access-hosts.js';
import { type Inbound, type Outcome, requestIdFor, routeRefusal } from './http/handler.js';
import type { MaybeAsync } from './http/maybe-async.js';
import { MAX_BODY_BYTES } from './http/body.js';
import { type NodeBody, readNodeBody } from './http/node-body.js';
import {
  answerClientError,
  nodeInbound,
  refuseConnect,
  rejectTooLarge,
  writeAnswer,
  writeJsonError,
  writeResponse,
} from './http/node-io.js';
import { HttpError } from './http/responses.js';
import type { Logger } from './options.js';
import {
  clientCorrelation,
  errorCodeOf,
  loggablePath,
  type RequestLogEntry,
  type RequestLogHook,
} from './request-log.js';
import { UiEventStream } from './ui/event-stream.js';
import { isUiPath, serveUi, UI_PATH } from './ui/serve.js';
import { attachWebSocket, type WsSimulator } from './ws/server.js';

/**
 * Where {@link Simulator.listen} serves, and who may call it (src/simulator/README.md, "Who can
 * reach it"): `allowedHosts`, `cors` and `controlToken` are checked here, a RangeError naming the
 * option when malformed.
 */
export interface ListenOptions extends AccessOptions {
  /** Default 127.0.0.1. Any other than a loopback address requires a control token on `/_sim/*`. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /**
   * Called once per request answered over this server, WebSocket upgrades included (the CLI's
   * request log). It sees no query string, header or ticket; a hook that throws is logged and ignored.
   */
  onRequest?: RequestLogHook;
  /**
   * Serve the dashboard at `/_sim/ui` (default false; the CLI turns it on). It follows the rules
   * above: its page loads without the control token, what it reads needs it where `/_sim/*` does.
   */
  ui?: boolean;
  /**
   * Bound off loopback, the simulator refuses webhook endpoints on loopback, private and link-local
   * addresses (at create and before each delivery: platform/README.md, "Private addresses"), so a
   * shared sandbox cannot be made to call into its host. True lifts that (CLI
   * `--allow-private-webhooks`). On loopback endpoints may be anywhere, as in-process.
   */
  allowPrivateWebhooks?: boolean;
  /**
   * Dashboard pages streaming `/_sim/ui/events` at once (default 100; the CLI's `--ui-clients`):
   * the next one is answered 503 `{code: -1, message}` naming the flag, and its page retries.
   */
  uiClients?: number;
  /**
   * Bytes a dashboard stream may leave unwritten (default 256 KiB, beyond the few MiB the kernel
   * already holds for the socket): a page that stops reading is then dropped, as a slow WebSocket
   * is, and reconnects when it reads again.
   */
  uiMaxBufferedBytes?: number;
}

/** What the node:http + WebSocket binding serves: the dispatch behind the web handler, and the socket layer's port. */
export interface ServedSimulator extends WsSimulator {
  dispatch(req: Inbound, requestId: string): MaybeAsync<Outcome>;
  readonly logger: Logger;
  /** The largest `POST /_sim/restore` body read. */
  readonly restoreLimitBytes: number;
}

/** A simulator serving on a port: HTTP and the WebSocket. */
export interface RunningSimulator {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  /** e.g. ws://127.0.0.1:4010 (the socket is at `${wsUrl}/v1/match/ws`). */
  wsUrl: string;
  /** The node:http server. */
  server: Server;
  /**
   * The token `/_sim/*` requires in the `x-sim-control-token` header: the one given, or one
   * generated because the server is bound off loopback. Undefined when the control plane is open.
   */
  controlToken?: string;
  /** Whether {@link controlToken} was generated (the CLI prints it then, once). */
  controlTokenGenerated: boolean;
  /** The dashboard's address (`${url}/_sim/ui`) when `ui` was asked for. */
  uiUrl?: string;
  /**
   * `public` when bound off loopback without `allowPrivateWebhooks`: while this server is open,
   * webhook endpoints on loopback, private and link-local addresses are refused. Else `any`.
   */
  webhookTargets: 'any' | 'public';
  /** Closes the server and every socket. */
  close(): Promise<void>;
}

type Report = (status: number | null, code?: number) => void;

const ignore: Report = () => {};

/**
 * One request: who may call (Host, Origin, control token), then its route (404, 405), then its body
 * read within bounds, then the dispatch (no web Request), then the answer. Issue 23: each step runs
 * at once when it can (maybe-async.ts): a GET without a body is answered within the 'request' event
 * and a small POST one tick later, with no Promise in between.
 */
function serve(
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
function reporter(
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

function failed(sim: ServedSimulator, req: IncomingMessage, report: Report, err: unknown): void {
  sim.logger.error('simulator request failed', err);
  req.socket.destroy();
  report(null);
}

function safely(sim: ServedSimulator, hook: RequestLogHook, entry: RequestLogEntry): void {
  try {
    hook(entry);
  } catch (err) {
    sim.logger.error('request log hook failed', err);
  }
}

/** Serves `sim.handle` over node:http (keep-alive) and the WebSocket at /v1/match/ws. */
export function listen(sim: ServedSimulator, options: ListenOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  let access: AccessPolicy;
  let ui: UiEventStream | undefined;
  try {
    access = new AccessPolicy(host, options);
    if (options.ui)
      ui = new UiEventStream(sim, {
        maxClients: options.uiClients,
        maxBufferedBytes: options.uiMaxBufferedBytes,
      });
  } catch (err) {
    return Promise.reject(err);
  }
  // Host is checked by toRequest, so that its absence gets the JSON error body too.
  const hook = options.onRequest;
  const server = createServer({ keepAlive: true, requireHostHeader: false }, (req, res) => {
    // The log's path is cut and cleaned only when there is a log: it costs on every request.
    const report = hook ? reporter(sim, hook, req.method ?? '-', loggablePath(req.url), req.headers) : ignore;
    try {
      const served = serve(sim, req, res, host, access, report, ui);
      if (served instanceof Promise) served.catch((err: unknown) => failed(sim, req, report, err));
    } catch (err) {
      failed(sim, req, report, err);
    }
  });
  server.on('clientError', (err: Error, socket) => {
    const answered = answerClientError(err, socket);
    // The request line may be what failed: neither method nor path is known.
    if (answered) reporter(sim, hook, '-', '-')(answered.status, answered.code);
  });
  server.on('connect', (req, socket) => {
    const report = reporter(sim, hook, 'CONNECT', loggablePath(req.url));
    report(refuseConnect(req, socket) ? 405 : null, -1);
  });
  server.on('checkExpectation', (req, res) => {
    const report = reporter(sim, hook, req.method ?? '-', loggablePath(req.url));
    const sent = writeJsonError(
      req,
      res,
      417,
      -1,
      'Expectation Failed: only Expect: 100-continue is supported',
    );
    report(sent ? 417 : null, -1);
  });
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const hostPart = host.includes(':') ? `[${host}]` : host;
      const ws = attachWebSocket(sim, server, {
        admit: (req) => access.admitUpgrade(req.headers, req.url),
        ...(hook ? { onUpgrade: (entry) => safely(sim, hook, entry) } : {}),
      });
      let closing: Promise<void> | undefined;
      resolve({
        url: `http://${hostPart}:${port}`,
        wsUrl: `ws://${hostPart}:${port}`,
        server,
        ...(access.controlToken === undefined ? {} : { controlToken: access.controlToken }),
        controlTokenGenerated: access.generatedToken,
        webhookTargets: isLoopbackBind(host) || options.allowPrivateWebhooks === true ? 'any' : 'public',
        ...(options.ui ? { uiUrl: `http://${hostPart}:${port}${UI_PATH}` } : {}),
        close() {
          closing ??= (async () => {
            ui?.close();
            await ws.close();
            await new Promise<void>((done) => {
              server.close(() => done());
              server.closeAllConnections();
            });
          })();
          return closing;
        },
      });
    });
  });
}
