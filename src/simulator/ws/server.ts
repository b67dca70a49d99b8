import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import {
  isSubprotocolName,
  SUBPROTOCOL,
  SUBPROTOCOL_RULE,
  TICKET_PROTOCOL_PREFIX,
  WS_PATH,
} from '../../contract/ws-protocol.js';
import type { PresetName } from '../engine/fault-presets.js';
import type { SimulatorEvent } from '../engine/types.js';
import type { EventInterest } from '../events/event-fanout.js';
import type { RequestLogHook } from '../http/request-log.js';
import { registerAccountSeq } from './account-seq.js';
import { GOING_AWAY, registerAccountWrites, WsPresets } from './fault-presets.js';
import { Hub } from './hub.js';
import { TicketError } from './tickets.js';

/** The part of the simulator the WebSocket layer uses. */
export interface WsSimulator {
  tickets: { verify(ticket: string | undefined): Promise<{ entityId: string }> };
  /** `interest`: the events the listener reads; the others are never built, only counted. */
  onEvent(listener: (event: SimulatorEvent) => void, interest?: EventInterest): () => void;
  marketSnapshot(): unknown;
  /**
   * Control-plane notifications: `{ type: 'killSockets' }` drops every socket; `{ type: 'reset' }`
   * drops every socket and restarts every sequence.
   */
  onControl?(listener: (control: { type: string }) => void): () => void;
  now?(): number;
  /** The fault set in force: its presets act on the sockets (fault-presets.ts). */
  readonly faults?: { readonly presets?: readonly PresetName[] | undefined };
}

export interface AttachWebSocketOptions {
  path?: string;
  /**
   * The subprotocol name the server requires and selects. Default our spec's `service-match.v1`;
   * e.g. `circle-match.v1` to stand in for the venue's owner's name in a test.
   */
  subprotocol?: string;
  /** Frames kept per sequence (market, each account) for `since` replay. Default 1024. */
  replayBufferSize?: number;
  /** Server ping interval; a socket that misses one pong is terminated. 0 disables. Default 30 s. */
  heartbeatIntervalMs?: number;
  /** Unsent bytes after which a socket is dropped as a slow consumer. Default 16 MiB. */
  maxBufferedBytes?: number;
  onClientFrame?: (entityId: string, frame: { op: string; channel?: 'market' | 'account' }) => void;
  /** Each upgrade at `path` answered: 101, or the refusal's status (the request log). */
  onUpgrade?: RequestLogHook;
  /**
   * Checks an upgrade at `path` before anything else (listen.ts: the Host check and the refusal of
   * a foreign Origin); a refusal is answered with its status and a JSON body, the ticket unread.
   */
  admit?: (req: IncomingMessage) => { status: number; message: string } | undefined;
}

export interface WebSocketHandle {
  close(): Promise<void>;
  /** Terminates every socket (the `killSockets` fault). */
  killSockets(): void;
  stats(): { connections: number; market: number; account: number };
}

function parseProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return [];
  return header
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** The request-log report of an upgrade being answered, by its socket (set with `onUpgrade`). */
const upgradeOutcome = new WeakMap<Duplex, (status: number) => void>();

function reportUpgrade(hook: RequestLogHook, path: string): (status: number) => void {
  const started = performance.now();
  return (status) =>
    hook({
      kind: 'websocket',
      method: 'GET',
      path,
      status,
      ...(status >= 400 ? { code: status } : {}),
      ms: performance.now() - started,
    });
}

function refuse(socket: Duplex, status: number, message: string): void {
  upgradeOutcome.get(socket)?.(status);
  const body = JSON.stringify({ code: status, message });
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export function attachWebSocket(
  sim: WsSimulator,
  server: Server,
  options: AttachWebSocketOptions = {},
): WebSocketHandle {
  const path = options.path ?? WS_PATH;
  const protocol = options.subprotocol ?? SUBPROTOCOL;
  if (!isSubprotocolName(protocol)) throw new RangeError(`subprotocol ${SUBPROTOCOL_RULE}`);
  const heartbeatMs = options.heartbeatIntervalMs ?? 30_000;
  const now = () => (sim.now ? sim.now() : Date.now());
  const presets = new WsPresets(() => sim.faults?.presets);
  const hub = new Hub({
    lost: presets.lost,
    protocol,
    heartbeatMs,
    replayBufferSize: options.replayBufferSize ?? 1024,
    maxBufferedBytes: options.maxBufferedBytes ?? 16 * 1024 * 1024,
    now,
    marketSnapshot: () => sim.marketSnapshot(),
    onClientFrame: options.onClientFrame,
  });
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: 64 * 1024,
    // Select the protocol version; the ticket value is never echoed back.
    handleProtocols: (protocols) => (protocols.has(protocol) ? protocol : false),
  });
  const pending = new Set<Duplex>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (options.onUpgrade) upgradeOutcome.set(socket, reportUpgrade(options.onUpgrade, url.pathname));
    if (url.pathname !== path) {
      // Another upgrade handler on this server may own that path.
      if (server.listenerCount('upgrade') === 1) refuse(socket, 404, 'no WebSocket endpoint at this path');
      return;
    }
    socket.on('error', () => socket.destroy());
    const refusal = options.admit?.(req);
    if (refusal) {
      refuse(socket, refusal.status, refusal.message);
      return;
    }
    const protocols = parseProtocols(req);
    // 400, not 401: the credentials may be fine, the client speaks the wrong protocol version.
    if (!protocols.includes(protocol)) {
      refuse(socket, 400, `Sec-WebSocket-Protocol must include ${protocol}`);
      return;
    }
    if (presets.refuseUpgrade()) {
      refuse(socket, 401, 'ticket expired');
      return;
    }
    const ticketProtocol = protocols.find((p) => p.startsWith(TICKET_PROTOCOL_PREFIX));
    const ticket = ticketProtocol?.slice(TICKET_PROTOCOL_PREFIX.length);
    pending.add(socket);
    sim.tickets.verify(ticket).then(
      ({ entityId }) => {
        pending.delete(socket);
        if (socket.destroyed) return;
        wss.handleUpgrade(req, socket, head, (ws) => {
          upgradeOutcome.get(socket)?.(101);
          hub.add(ws, entityId, socket);
        });
      },
      (err: unknown) => {
        pending.delete(socket);
        const message = err instanceof TicketError ? `ticket ${err.reason}` : 'ticket invalid';
        refuse(socket, 401, message);
      },
    );
  };
  server.on('upgrade', onUpgrade);

  const offEvent = sim.onEvent((ev) => {
    hub.publish(ev);
    if (presets.goingAway(ev)) hub.closeAll(GOING_AWAY, 'going away');
  }, hub);
  const offAccountSeq = registerAccountSeq(sim, (entityId) => hub.accountSeq(entityId));
  const offAccountWrites = registerAccountWrites(sim, (entityId) => hub.accountWritten(entityId));
  const offControl = sim.onControl?.((control) => {
    if (control.type === 'killSockets') hub.terminateAll();
    else if (control.type === 'reset') {
      hub.restart();
      presets.restart();
    }
  });
  const heartbeat = heartbeatMs > 0 ? setInterval(() => hub.heartbeat(), heartbeatMs) : undefined;
  heartbeat?.unref();

  let closed: Promise<void> | undefined;
  return {
    killSockets: () => hub.terminateAll(),
    stats: () => hub.stats(),
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.off('upgrade', onUpgrade);
        offEvent();
        offAccountSeq();
        offAccountWrites();
        offControl?.();
        if (heartbeat) clearInterval(heartbeat);
        for (const socket of pending) socket.destroy();
        hub.terminateAll();
        wss.close(() => resolve());
      });
      return closed;
    },
  };
}
