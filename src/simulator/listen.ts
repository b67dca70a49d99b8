import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { invalidRequest } from './http/responses.js';
import type { Simulator } from './simulator.js';
import { attachWebSocket } from './ws/server.js';

export interface ListenOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
}

export interface RunningSimulator {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  /** e.g. ws://127.0.0.1:4010 (the socket is at `${wsUrl}/v1/match/ws`). */
  wsUrl: string;
  server: Server;
  close(): Promise<void>;
}

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    duplex: 'half',
  } as RequestInit);
}

async function writeResponse(res: Response, out: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const setCookie = res.headers.getSetCookie();
  if (setCookie.length) headers['set-cookie'] = setCookie;
  const body = res.body ? Buffer.from(await res.arrayBuffer()) : undefined;
  if (body) headers['content-length'] = String(body.length);
  out.writeHead(res.status, headers);
  out.end(body);
}

/** Serves `sim.handle` over node:http (keep-alive) and the WebSocket at /v1/match/ws. */
export function listen(sim: Simulator, options: ListenOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer({ keepAlive: true }, (req, res) => {
    const origin = `http://${req.headers.host ?? `${host}`}`;
    let request: Request;
    try {
      request = toRequest(req, origin);
    } catch {
      // An unusable Host header or request target: the same extended code-2 body as any bad input.
      const bad = invalidRequest('Invalid request: malformed request line or Host header', [
        {
          error: 'invalid_url',
          message: 'is not a valid request target',
          location: 'url',
          invalidValue: String(req.url).slice(0, 200),
        },
      ]).toResponse();
      const answer = new Response(bad.body, { status: bad.status, headers: bad.headers });
      answer.headers.set('x-request-id', `req_${crypto.randomUUID()}`);
      void writeResponse(answer, res);
      return;
    }
    sim.handle(request).then(
      (response) => writeResponse(response, res),
      (err: unknown) => {
        // The dropResponse fault (or a failure to even build an answer): the client sees a dead socket.
        if (!(err instanceof TypeError)) sim.logger.error('simulator handler rejected', err);
        req.socket.destroy();
      },
    );
  });
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
