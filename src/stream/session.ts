import { type BackoffPolicy, backoffDelay, isPermanentRefusal } from '../contract/retry-policy.js';
import { decodeServerFrame, encodeClientFrame } from '../contract/ws-codec.js';
import { type ClientFrame, SUBPROTOCOL, TICKET_PROTOCOL_PREFIX, WS_PATH } from '../contract/ws-protocol.js';
import { ConfigurationError } from '../core/error.js';
import type { Logger } from '../core/logger.js';
import type { StateChange, StreamHost, StreamOptions, StreamState } from './api.js';
import { StreamGaveUpError } from './errors.js';
import { socketRecorder } from './load.js';
import {
  openSocket,
  SOCKET_CLOSED,
  SOCKET_OPEN,
  type SocketData,
  type StreamSocket,
} from './socket-factory.js';

// One socket at a time and the life around it: a fresh ticket per connect, the opening handshake,
// the server's hello, heartbeats, and reconnecting on a schedule. Knows nothing of channels,
// events or buffers: it hands every frame's text on and asks the rest of the stream only what the
// hooks below ask.

/** Default wait for the server's `hello` before subscribing anyway (a server that sends none). */
export const DEFAULT_HELLO_TIMEOUT_MS = 1000;

/** What the session needs from the rest of the stream. */
export interface SessionHooks {
  /**
   * A socket speaks our subprotocol and the server said hello (or the wait for it ran out): the
   * channels subscribe (again).
   */
  opened(): void;
  /** The text of one frame of the current socket. */
  message(text: string): void;
  /** True while the consumer is not reading (flow control holds the socket). */
  held(): boolean;
  /** The stream cannot go on: a ticket refused for good, or every allowed attempt failed. */
  failed(error: Error): void;
}

export interface SessionSettings {
  log: Logger;
  backoff: BackoffPolicy;
  random: () => number;
}

/** `{ws_url}` or `{ws_url}/v1/match/ws` -> the socket's address; throws on an invalid URL. */
function endpoint(wsUrl: string): string {
  const url = new URL(wsUrl);
  if (!url.pathname.endsWith(WS_PATH)) url.pathname = `${url.pathname.replace(/\/$/, '')}${WS_PATH}`;
  return url.toString();
}

/**
 * A ticket request the venue refused for good (e.g. 401 or 137010), as opposed to a network failure,
 * a 408/429 or a 5xx that a later attempt may get past: the contract's retryable-status rule.
 */
function isRefusal(err: unknown): err is Error {
  if (!(err instanceof Error)) return false;
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' && isPermanentRefusal(status);
}

/** Whether a frame is the server's `hello`; only frames before it are looked at. */
function isHello(text: string): boolean {
  const decoded = decodeServerFrame(text);
  return decoded.ok && decoded.frame.type === 'hello';
}

export class Session {
  // Private (#), not merely `private`: the socket's handshake request carries the ticket in its
  // subprotocol header, and inspection or serialization of the stream must never reach it.
  #ws: StreamSocket | undefined;
  private current: StreamState = 'connecting';
  private stopped = false;
  /** Consecutive failed attempts (0 once open). */
  private attempt = 0;
  /** Sockets lost after opening (the stream's `reconnects` count). */
  private lost = 0;
  /** Ids of client frames: one sequence for subscribes, unsubscribes and pings. */
  private frameId = 0;
  /** The current socket's server said hello, or the wait for it ran out. */
  private greeted = false;
  private helloTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private silenceTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(change: StateChange) => void>();
  private closeWaiters: (() => void)[] = [];

  constructor(
    private readonly host: StreamHost,
    private readonly opts: StreamOptions,
    private readonly settings: SessionSettings,
    private readonly hooks: SessionHooks,
  ) {
    // A fixed address is checked now, so a typo throws here rather than retrying forever.
    if (typeof host.wsUrl === 'string') endpoint(host.wsUrl);
  }

  /** Connects soon: deferred so that listeners attached right after connectStream() see 'connecting'. */
  start(): void {
    queueMicrotask(() => void this.open());
  }

  get state(): StreamState {
    return this.current;
  }

  /** True once the stream closed (by close(), a refusal or giving up); it never reopens. */
  get closed(): boolean {
    return this.stopped;
  }

  get reconnects(): number {
    return this.lost;
  }

  onState(listener: (change: StateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  nextFrameId(): number {
    return ++this.frameId;
  }

  /**
   * Sends when a socket is open, and a subscribe or unsubscribe only once the server said hello.
   * Otherwise the frame is moot, not lost: the channels keep their list of subscriptions and send
   * it whole at the next `opened`.
   */
  send(frame: ClientFrame): void {
    const ws = this.#ws;
    if (!ws || ws.readyState !== SOCKET_OPEN) return;
    if (!this.greeted && frame.op !== 'ping') return;
    ws.send(encodeClientFrame(frame));
  }

  /** Stops reading the socket (TCP backpressure reaches the server); resume() reads again. */
  pause(): void {
    this.#ws?.pause();
  }

  resume(): void {
    this.#ws?.resume();
  }

  announce(state: StreamState, reason?: string): void {
    this.current = state;
    const change: StateChange = { state, attempt: this.attempt };
    if (reason !== undefined) change.reason = reason;
    for (const l of this.listeners) {
      try {
        l(change);
      } catch (err) {
        this.settings.log.error('stream: state listener threw', {
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }

  /** Ends the session for good: no more reconnects, heartbeats or socket. Announcing is the caller's. */
  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.stopHello();
    this.stopHeartbeat();
    this.#ws?.terminate();
  }

  /** Resolves once the socket (if any) has closed. */
  socketGone(): Promise<void> {
    const ws = this.#ws;
    if (!ws || ws.readyState === SOCKET_CLOSED) return Promise.resolve();
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    this.announce(this.attempt === 0 && this.lost === 0 ? 'connecting' : 'reconnecting');
    const { log } = this.settings;
    let url: string;
    try {
      const wsUrl = this.host.wsUrl;
      url = typeof wsUrl === 'string' ? endpoint(wsUrl) : endpoint(await wsUrl());
    } catch (err) {
      log.warn('stream: resolving the WebSocket URL failed', {
        error: err instanceof Error ? err.message : String(err),
      });
      this.retry('WebSocket URL unavailable');
      return;
    }
    if (this.stopped) return;
    let ticket: string;
    try {
      // Never reuse a ticket: they are single-use and short-lived.
      ticket = (await this.host.ticket()).ticket;
    } catch (err) {
      log.warn('stream: ticket request failed', { error: err instanceof Error ? err.message : String(err) });
      if (isRefusal(err)) {
        // A bad key or an ineligible entity does not heal by retrying: end the stream with the error.
        this.hooks.failed(err);
        return;
      }
      this.retry('ticket request failed');
      return;
    }
    if (this.stopped) return;
    let ws: StreamSocket;
    try {
      // A recording client's socket is wrapped as it is made, its code loaded first (load.ts).
      const record = this.host.recorder && (await socketRecorder(this.host.recorder));
      ws = await openSocket(url, [this.protocol, `${TICKET_PROTOCOL_PREFIX}${ticket}`], {
        handshakeTimeoutMs: this.opts.connectTimeoutMs ?? 10_000,
      });
      if (record && !this.stopped) ws = record(ws, url);
    } catch (err) {
      // No WebSocket client here, one refusing the URL or subprotocols, or no recording code: final.
      if (!(err instanceof ConfigurationError)) throw err;
      this.hooks.failed(err);
      return;
    }
    if (this.stopped) {
      ws.terminate();
      return;
    }
    this.#ws = ws;
    ws.on('open', () => this.onOpen(ws));
    ws.on('message', (data: SocketData) => this.onMessage(ws, data));
    // The ws error text never contains the subprotocols, so the ticket cannot leak through it.
    ws.on('error', (err) => log.warn('stream: socket error', { error: err.message }));
    ws.on('close', (code) => this.onClose(ws, code));
  }

  /** The subprotocol offered and required of the server's selection (the client's `wsSubprotocol`). */
  private get protocol(): string {
    return this.host.subprotocol ?? SUBPROTOCOL;
  }

  private onOpen(ws: StreamSocket): void {
    if (ws !== this.#ws || this.stopped) return;
    if (ws.protocol !== this.protocol) {
      this.settings.log.warn('stream: the server selected another subprotocol, closing', {
        selected: ws.protocol,
        expected: this.protocol,
      });
      ws.terminate();
      return;
    }
    this.attempt = 0;
    this.greeted = false;
    this.announce('open');
    // Not paused yet even if the consumer is behind: the hello must be read. Nothing else comes
    // before the channels subscribe, and `greet` pauses then.
    const wait = this.opts.helloTimeoutMs ?? DEFAULT_HELLO_TIMEOUT_MS;
    this.helloTimer = setTimeout(() => {
      this.helloTimer = undefined;
      if (ws !== this.#ws || this.greeted) return;
      this.settings.log.info('stream: no hello from the server, subscribing anyway', { waitedMs: wait });
      this.greet();
    }, wait);
    this.startHeartbeat(ws);
  }

  /** The server is ready for subscriptions. */
  private greet(): void {
    this.stopHello();
    this.greeted = true;
    if (this.hooks.held()) this.#ws?.pause();
    this.hooks.opened();
  }

  private stopHello(): void {
    if (this.helloTimer) clearTimeout(this.helloTimer);
    this.helloTimer = undefined;
  }

  private onMessage(ws: StreamSocket, data: SocketData): void {
    if (ws !== this.#ws) return;
    // Any frame answers a ping: the socket is alive.
    if (this.silenceTimer) {
      clearTimeout(this.silenceTimer);
      this.silenceTimer = undefined;
    }
    const text = data.toString();
    if (!this.greeted && isHello(text)) {
      this.greet();
      return;
    }
    this.hooks.message(text);
  }

  private onClose(ws: StreamSocket, code: number): void {
    if (ws === this.#ws) {
      this.stopHello();
      this.stopHeartbeat();
      this.#ws = undefined;
      if (!this.stopped) {
        this.lost += 1;
        this.retry(`socket closed (${code})`);
      }
    }
    if (this.stopped && !this.#ws) {
      const waiters = this.closeWaiters;
      this.closeWaiters = [];
      for (const w of waiters) w();
    }
  }

  private retry(reason: string): void {
    if (this.stopped) return;
    this.attempt += 1;
    const max = this.opts.reconnect?.maxAttempts ?? Number.POSITIVE_INFINITY;
    if (this.attempt > max) {
      this.hooks.failed(new StreamGaveUpError(max, reason));
      return;
    }
    this.announce('reconnecting', reason);
    const delay = backoffDelay(this.attempt - 1, this.settings.backoff, this.settings.random);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.open();
    }, delay);
  }

  private startHeartbeat(ws: StreamSocket): void {
    const interval = this.opts.heartbeatIntervalMs ?? 15_000;
    const timeout = this.opts.heartbeatTimeoutMs ?? 10_000;
    this.stopHeartbeat();
    this.heartbeatTimer = setInterval(() => {
      // While the client itself is not reading, silence proves nothing.
      if (ws !== this.#ws || this.hooks.held() || this.silenceTimer) return;
      this.send({ op: 'ping', id: this.nextFrameId() });
      this.silenceTimer = setTimeout(() => {
        this.silenceTimer = undefined;
        if (ws !== this.#ws || this.hooks.held()) return;
        this.settings.log.warn('stream: no answer to ping, replacing the connection');
        ws.terminate();
      }, timeout);
    }, interval);
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.heartbeatTimer = undefined;
    this.silenceTimer = undefined;
  }
}
