import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AccessOptions, AccessPolicy } from '../http/access.js';
import { isLoopbackBind } from '../http/access-hosts.js';
import { answerClientError, refuseConnect, writeJsonError } from '../http/node-io.js';
import { loggablePath, type RequestLogHook } from '../http/request-log.js';
import { UiEventStream } from '../ui/event-stream.js';
import { UI_ASSET_PATHS, UI_PATH } from '../ui/serve.js';
import { attachWebSocket } from '../ws/server.js';
import { failed, ignore, reporter, type ServedSimulator, safely, serve } from './serve-request.js';

export type { ServedSimulator } from './serve-request.js';

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

/** Serves `sim.handle` over node:http (keep-alive) and the WebSocket at /v1/match/ws. */
export function listen(sim: ServedSimulator, options: ListenOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  let access: AccessPolicy;
  let ui: UiEventStream | undefined;
  try {
    access = new AccessPolicy(host, options, UI_ASSET_PATHS);
    if (options.ui)
      ui = new UiEventStream(sim, {
        maxClients: options.uiClients,
        maxBufferedBytes: options.uiMaxBufferedBytes,
      });
  } catch (err) {
    return Promise.reject(err);
  }
  // A missing Host is refused by serve() (requestTarget), so that its absence gets the JSON error body too.
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
