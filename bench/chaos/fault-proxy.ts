/**
 * A loopback HTTP + WebSocket fault proxy for the chaos drivers: it sits between an SDK client and
 * the simulator's HTTP server and, for the routes it is told to hurt, decides per request (seeded,
 * by idempotency key and attempt number, so the same run draws the same faults whatever the arrival
 * order) to:
 *
 * - `dropAnswer`: forward the request, let the simulator process it, then close the client's
 *   connection without answering (the change happened; the client cannot know);
 * - `resetBeforeForward`: read the request, then reset the connection (TCP RST) without forwarding;
 * - `unavailable`: answer 503 `{code: -1}` without forwarding;
 * - `delayRequest`: hold the request for `delayMs` (beyond the client's timeout), then forward it
 *   anyway: the attempt the client gave up on lands late, maybe after a later attempt with the same
 *   key was answered, maybe in the next auction;
 * - `delayAnswer`: forward at once, hold the answer for `delayMs` (the client times out first).
 *
 * WebSocket upgrades are passed through byte for byte on a TCP pipe; `killStreams()` destroys every
 * such pipe at once (the client sees an abnormal close). Loopback only: it listens on 127.0.0.1 and
 * refuses an upstream that is not a loopback address.
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { DEFAULT_FAULTS, drawFault, type FaultKind, type FaultRates } from './fault-kinds.js';
import type { FaultProxy, FaultProxyOptions, FaultProxyStats } from './fault-proxy-api.js';
import { DEFAULT_ROUTES, HOP_BY_HOP, keyOf, loopbackUrl } from './proxy-http.js';

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const upstream = loopbackUrl(options.upstream);
  const wsUpstream = loopbackUrl(options.wsUpstream ?? options.upstream);
  const seed = options.seed ?? 1;
  const [delayMin, delayMax] = options.delayMs ?? [400, 1200];
  const routes = new Set(options.routes ?? DEFAULT_ROUTES);
  let rates: FaultRates = { ...DEFAULT_FAULTS, ...options.faults };
  const stats: FaultProxyStats = {
    requests: 0,
    faults: {
      none: 0,
      dropAnswer: 0,
      resetBeforeForward: 0,
      unavailable: 0,
      delayRequest: 0,
      delayAnswer: 0,
    },
    forwarded: 0,
    upstreamErrors: 0,
    landedAfterRefusal: 0,
    wsConnections: 0,
    wsKilled: 0,
  };
  const attempts = new Map<string, number>();
  /** Keys an upstream answer refused (4xx) at least once. */
  const refusedKeys = new Set<string>();
  let sequence = 0;
  let busy = 0;
  let idleWaiters: (() => void)[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const pipes = new Set<{ client: Duplex; server: Socket }>();
  // A short free-socket timeout, well under the simulator's 5 s keep-alive, so the proxy never
  // reuses a connection the simulator is closing (that would be a fault nobody asked for).
  const agent = new Agent({ keepAlive: true, timeout: 2_000, maxSockets: 256 });

  const enter = () => {
    busy++;
  };
  const leave = () => {
    busy--;
    if (busy === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  };

  /** The fault for this attempt, and a second draw (the hold time of a delay). */
  const decide = (key: string, route: string): { kind: FaultKind; draw: number } => {
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    return drawFault(rates, seed, route, key, attempt);
  };

  /** Sends the request upstream; resolves with the whole answer (or undefined on an upstream failure). */
  const forward = (
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer } | undefined> =>
    new Promise((resolveForward) => {
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
      }
      headers.host = upstream.host;
      headers['content-length'] = String(body.length);
      stats.forwarded++;
      const out = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers,
          agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const answerHeaders: Record<string, string | string[]> = {};
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined && !HOP_BY_HOP.has(name)) answerHeaders[name] = value;
            }
            resolveForward({
              status: res.statusCode ?? 502,
              headers: answerHeaders,
              body: Buffer.concat(chunks),
            });
          });
          res.on('error', () => resolveForward(undefined));
        },
      );
      out.on('error', () => {
        stats.upstreamErrors++;
        resolveForward(undefined);
      });
      out.end(body);
    });

  const answer = (
    res: ServerResponse,
    result: { status: number; headers: Record<string, string | string[]>; body: Buffer } | undefined,
  ) => {
    if (res.destroyed || res.writableEnded) return;
    if (!result) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"code":-1,"message":"fault proxy: upstream failed"}');
      return;
    }
    res.writeHead(result.status, { ...result.headers, 'content-length': String(result.body.length) });
    res.end(result.body);
  };

  const server = createServer({ keepAlive: true }, (req, res) => {
    enter();
    stats.requests++;
    const chunks: Buffer[] = [];
    let read = false;
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => {});
    // A client gone before its body was read: nothing to forward.
    req.on('close', () => {
      if (!read) leave();
    });
    req.on('end', () => {
      read = true;
      const body = Buffer.concat(chunks);
      const route = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
      const key = keyOf(body) ?? `#${sequence}`;
      sequence++;
      const { kind, draw } = routes.has(route) ? decide(key, route) : { kind: 'none' as const, draw: 0 };
      const send = () =>
        forward(req, body).then((result) => {
          if (result && result.status >= 400 && result.status < 500) refusedKeys.add(key);
          return result;
        });
      if (routes.has(route)) stats.faults[kind]++;
      switch (kind) {
        case 'resetBeforeForward':
          req.socket.resetAndDestroy();
          leave();
          return;
        case 'unavailable':
          res.writeHead(503, { 'content-type': 'application/json', 'x-request-id': `req_proxy_${sequence}` });
          res.end('{"code":-1,"message":"Service unavailable (fault proxy)"}');
          leave();
          return;
        case 'dropAnswer':
          send().then(() => {
            req.socket.destroy();
            leave();
          });
          return;
        case 'delayRequest': {
          const hold = delayMin + draw * (delayMax - delayMin);
          const timer = setTimeout(() => {
            timers.delete(timer);
            // The client gave up long ago (its connection is closed); the request lands anyway.
            const refusedBefore = refusedKeys.has(key);
            send().then((result) => {
              if (refusedBefore && result && result.status >= 200 && result.status < 300) {
                stats.landedAfterRefusal++;
              }
              answer(res, result);
              leave();
            });
          }, hold);
          timers.add(timer);
          return;
        }
        case 'delayAnswer': {
          const hold = delayMin + draw * (delayMax - delayMin);
          send().then((result) => {
            const timer = setTimeout(() => {
              timers.delete(timer);
              answer(res, result);
              leave();
            }, hold);
            timers.add(timer);
          });
          return;
        }
        default:
          send().then((result) => {
            answer(res, result);
            leave();
          });
      }
    });
  });
  server.keepAliveTimeout = 60_000;

  let held: (() => void)[] | undefined;
  const heldSockets = new Set<Duplex>();
  /** Pipes an upgrade to the socket server byte for byte (a dead client kills its pipe too). */
  const pass = (req: IncomingMessage, client: Duplex, head: Buffer) => {
    stats.wsConnections++;
    const upstreamSocket = connect(Number(wsUpstream.port), wsUpstream.hostname);
    const pipe = { client, server: upstreamSocket };
    pipes.add(pipe);
    const end = () => {
      pipes.delete(pipe);
      client.destroy();
      upstreamSocket.destroy();
    };
    client.on('error', end);
    client.on('close', end);
    upstreamSocket.on('error', end);
    upstreamSocket.on('close', end);
    upstreamSocket.on('connect', () => {
      let head0 = `${req.method} ${req.url} HTTP/1.1\r\n`;
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i] as string;
        const value = name.toLowerCase() === 'host' ? wsUpstream.host : req.rawHeaders[i + 1];
        head0 += `${name}: ${value}\r\n`;
      }
      upstreamSocket.write(`${head0}\r\n`);
      if (head.length) upstreamSocket.write(head);
      client.pipe(upstreamSocket);
      upstreamSocket.pipe(client);
    });
  };

  server.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    if (held) {
      heldSockets.add(client);
      client.on('error', () => client.destroy());
      held.push(() => {
        heldSockets.delete(client);
        if (!client.destroyed) pass(req, client, head);
      });
      return;
    }
    pass(req, client, head);
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    setFaults(faults) {
      rates = { ...rates, ...faults };
    },
    killStreams() {
      const n = pipes.size;
      for (const pipe of [...pipes]) {
        pipe.client.destroy();
        pipe.server.destroy();
        pipes.delete(pipe);
      }
      stats.wsKilled += n;
      return n;
    },
    holdUpgrades() {
      held ??= [];
    },
    releaseUpgrades() {
      const waiting = held ?? [];
      held = undefined;
      for (const go of waiting) go();
    },
    stats: () => ({ ...stats, faults: { ...stats.faults } }),
    idle(boundMs = 30_000) {
      if (busy === 0) return Promise.resolve(true);
      return new Promise<boolean>((done) => {
        const timer = setTimeout(() => done(false), boundMs);
        idleWaiters.push(() => {
          clearTimeout(timer);
          done(true);
        });
      });
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const pipe of pipes) {
        pipe.client.destroy();
        pipe.server.destroy();
      }
      pipes.clear();
      held = undefined;
      for (const socket of heldSockets) socket.destroy();
      heldSockets.clear();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      agent.destroy();
      busy = 0;
      for (const w of idleWaiters.splice(0)) w();
    },
  };
}
