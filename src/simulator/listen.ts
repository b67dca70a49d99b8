import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  answerClientError,
  readNodeBody,
  refuseConnect,
  rejectTooLarge,
  toRequest,
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
import { attachWebSocket, type WsSimulator } from './ws/server.js';

/** Where {@link Simulator.listen} serves. */
export interface ListenOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /**
   * Called once per request answered over this server, WebSocket upgrades included (the CLI's
   * request log). It sees no query string, header or ticket; a hook that throws is logged and ignored.
   */
  onRequest?: RequestLogHook;
}

/** What the node:http + WebSocket binding serves: the web handler and the socket layer's port. */
export interface ServedSimulator extends WsSimulator {
  handle(req: Request): Promise<Response>;
  readonly logger: Logger;
}

/** A simulator serving on a port: HTTP and the WebSocket. */
export interface RunningSimulator {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  /** e.g. ws://127.0.0.1:4010 (the socket is at `${wsUrl}/v1/match/ws`). */
  wsUrl: string;
  /** The node:http server. */
  server: Server;
  /** Closes the server and every socket. */
  close(): Promise<void>;
}

type Report = (status: number | null, code?: number) => void;

/** One request: body read within bounds first, then the web handler, then the answer. */
async function serve(
  sim: ServedSimulator,
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
  report: Report,
): Promise<void> {
  const body = await readNodeBody(req);
  if (body === undefined) {
    report(null);
    return;
  }
  if (body === 'too-large') {
    report(rejectTooLarge(req, res) ? 413 : null, -1);
    return;
  }
  let request: Request;
  try {
    request = toRequest(req, host, body);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    const sent = writeJsonError(req, res, err.status, err.code, err.message, err.errors);
    report(sent ? err.status : null, err.code);
    return;
  }
  try {
    const answer = await sim.handle(request);
    const written = await writeResponse(answer, req, res);
    const code = errorCodeOf(answer.status, answer.headers.get('content-type'), written ?? undefined);
    report(written === null ? null : answer.status, code);
  } catch (err) {
    // The dropResponse fault (or a failure to even build an answer): the client sees a dead socket.
    if (!(err instanceof TypeError)) sim.logger.error('simulator handler rejected', err);
    req.socket.destroy();
    report(null);
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
  // Host is checked by toRequest, so that its absence gets the JSON error body too.
  const hook = options.onRequest;
  const server = createServer({ keepAlive: true, requireHostHeader: false }, (req, res) => {
    const report = reporter(sim, hook, req.method ?? '-', loggablePath(req.url), req.headers);
    serve(sim, req, res, host, report).catch((err: unknown) => {
      sim.logger.error('simulator request failed', err);
      req.socket.destroy();
      report(null);
    });
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
      const ws = attachWebSocket(sim, server, hook ? { onUpgrade: (entry) => safely(sim, hook, entry) } : {});
      let closing: Promise<void> | undefined;
      resolve({
        url: `http://${hostPart}:${port}`,
        wsUrl: `ws://${hostPart}:${port}`,
        server,
        close() {
          closing ??= (async () => {
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
