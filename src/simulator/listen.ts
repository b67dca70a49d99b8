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
import { attachWebSocket, type WsSimulator } from './ws/server.js';

export interface ListenOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
}

/** What the node:http + WebSocket binding serves: the web handler and the socket layer's port. */
export interface ServedSimulator extends WsSimulator {
  handle(req: Request): Promise<Response>;
  readonly logger: Logger;
}

export interface RunningSimulator {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  /** e.g. ws://127.0.0.1:4010 (the socket is at `${wsUrl}/v1/match/ws`). */
  wsUrl: string;
  server: Server;
  close(): Promise<void>;
}

/** One request: body read within bounds first, then the web handler, then the answer. */
async function serve(
  sim: ServedSimulator,
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
): Promise<void> {
  const body = await readNodeBody(req);
  if (body === undefined) return;
  if (body === 'too-large') {
    rejectTooLarge(req, res);
    return;
  }
  let request: Request;
  try {
    request = toRequest(req, host, body);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    writeJsonError(req, res, err.status, err.code, err.message, err.errors);
    return;
  }
  try {
    await writeResponse(await sim.handle(request), req, res);
  } catch (err) {
    // The dropResponse fault (or a failure to even build an answer): the client sees a dead socket.
    if (!(err instanceof TypeError)) sim.logger.error('simulator handler rejected', err);
    req.socket.destroy();
  }
}

/** Serves `sim.handle` over node:http (keep-alive) and the WebSocket at /v1/match/ws. */
export function listen(sim: ServedSimulator, options: ListenOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  // Host is checked by toRequest, so that its absence gets the JSON error body too.
  const server = createServer({ keepAlive: true, requireHostHeader: false }, (req, res) => {
    serve(sim, req, res, host).catch((err: unknown) => {
      sim.logger.error('simulator request failed', err);
      req.socket.destroy();
    });
  });
  server.on('clientError', answerClientError);
  server.on('connect', refuseConnect);
  server.on('checkExpectation', (req, res) =>
    writeJsonError(req, res, 417, -1, 'Expectation Failed: only Expect: 100-continue is supported'),
  );
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const hostPart = host.includes(':') ? `[${host}]` : host;
      const ws = attachWebSocket(sim, server);
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
