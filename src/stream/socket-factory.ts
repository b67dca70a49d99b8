import type * as Ws from 'ws';
import { ConfigurationError } from '../core/error.js';
import { describeLoadFailure, type LoadFailure, runtimeImport } from '../core/runtime-import.js';

/**
 * What the stream's session uses of a socket: the `ws` package's API, to which a runtime's own
 * WebSocket (Bun, Deno, browsers, edge workers) is adapted.
 */
export interface StreamSocket {
  readonly readyState: number;
  /** The subprotocol the server selected. */
  readonly protocol: string;
  send(text: string): void;
  /** Stops reading (TCP backpressure); a runtime WebSocket cannot, so frames wait in memory instead. */
  pause(): void;
  resume(): void;
  /** Drops the connection now; 'close' follows. */
  terminate(): void;
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: SocketData) => void): void;
  /** Only the message: a runtime WebSocket's error event says no more than that it failed. */
  on(event: 'error', listener: (error: { message: string }) => void): void;
  on(event: 'close', listener: (code: number) => void): void;
}

/** A frame's payload: `ws` hands over a Buffer, the runtime adapter text; both print as text. */
export interface SocketData {
  toString(): string;
}

/** The WebSocket readyState values the session compares with (the same in `ws` and WHATWG). */
export const SOCKET_OPEN = 1;
export const SOCKET_CLOSED = 3;

export interface SocketOptions {
  /** Time allowed for the opening handshake. */
  handshakeTimeoutMs: number;
}

type WsModule = typeof Ws & { default?: typeof Ws };

// `ws` (Node's WebSocket client, with backpressure and a handshake timeout) is loaded when the first
// stream connects, never at import, and through runtimeImport, so that no bundler follows it: an
// installed package finds `ws` in node_modules, while a bundle and a runtime without it use the
// runtime's own WebSocket (Bun, Deno, Node >= 22, browsers, edge workers). Why `ws` failed is kept:
// where there is no global WebSocket either, the error says what stopped it.
type WsLoad = { WebSocket: typeof Ws.WebSocket } | { WebSocket: undefined; failure: LoadFailure };
let wsLoad: Promise<WsLoad> | undefined;

function loadWs(): Promise<WsLoad> {
  wsLoad ??= runtimeImport<WsModule>('ws').then(
    (mod: WsModule): WsLoad => {
      // ws is CommonJS: from an ES module its exports may sit on the namespace's default.
      const WebSocket = mod.WebSocket ?? mod.default?.WebSocket;
      if (WebSocket) return { WebSocket };
      const failure = { missing: false, reason: 'the module loaded as ws has no WebSocket export' };
      return { WebSocket, failure };
    },
    (error: unknown): WsLoad => ({ WebSocket: undefined, failure: describeLoadFailure('ws', error) }),
  );
  return wsLoad;
}

/** Why neither `ws` nor a global WebSocket can stream: an absent package, or what stopped it loading. */
export function noSocketMessage(failure: LoadFailure): string {
  const global = 'or run where WebSocket is global (Node >= 22, Bun, Deno, browsers)';
  return failure.missing
    ? `Streaming needs a WebSocket client: install the ws package (Node 20) ${global}.`
    : `Streaming needs a WebSocket client: the ws package could not be loaded (${failure.reason}); ` +
        `fix that ${global}.`;
}

/**
 * Opens a socket to `url` offering `protocols` (the subprotocol and the ticket protocol), with `ws`
 * where it can be loaded and the runtime's global WebSocket otherwise. The protocols travel in the
 * handshake only; nothing here logs them.
 */
export async function openSocket(
  url: string,
  protocols: string[],
  options: SocketOptions,
): Promise<StreamSocket> {
  const ws = await loadWs();
  const WsSocket = ws.WebSocket;
  const Native = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
  if (!ws.WebSocket && !Native) throw new ConfigurationError(noSocketMessage(ws.failure));
  try {
    if (WsSocket) {
      return new WsSocket(url, protocols, {
        perMessageDeflate: false,
        handshakeTimeout: options.handshakeTimeoutMs,
      });
    }
    return runtimeSocket(new Native!(url, protocols), options);
  } catch {
    // A constructor's message may quote the protocols it refused, and one of them is the ticket:
    // neither the message nor the error itself travels on.
    throw new ConfigurationError(
      'The WebSocket client refused the stream URL or subprotocols (the subprotocol name must be an HTTP token).',
    );
  }
}

/** A WHATWG WebSocket behind the `ws`-style interface the session uses. */
function runtimeSocket(ws: WebSocket, options: SocketOptions): StreamSocket {
  ws.binaryType = 'arraybuffer';
  const decoder = new TextDecoder();
  // WHATWG sockets have no handshake timeout of their own; close() on a connecting socket fails it.
  const handshake = setTimeout(() => {
    if (ws.readyState === ws.CONNECTING) ws.close();
  }, options.handshakeTimeoutMs);
  ws.addEventListener('open', () => clearTimeout(handshake));
  // 'close' reaches the session once: from the socket, or from terminate(), which cannot wait for
  // it. A WHATWG close() only starts the closing handshake, and a peer gone silent (the case the
  // heartbeat terminates for) never answers it: the socket would stay CLOSING until TCP gives up,
  // the stream neither reconnecting nor closing meanwhile.
  const closeListeners: ((code: number) => void)[] = [];
  let closed = false;
  const closeOnce = (code: number) => {
    if (closed) return;
    closed = true;
    clearTimeout(handshake);
    for (const listener of closeListeners) listener(code);
  };
  ws.addEventListener('close', (e: CloseEvent) => closeOnce(e.code));
  return {
    get readyState() {
      // Closed for the session once 'close' reached it, whatever the handshake left behind does.
      return closed ? SOCKET_CLOSED : ws.readyState;
    },
    get protocol() {
      return ws.protocol;
    },
    send: (text) => ws.send(text),
    pause() {},
    resume() {},
    terminate() {
      ws.close();
      // 1006: closed without a close frame from the peer, as ws reports its own terminate().
      setTimeout(closeOnce, 0, 1006);
    },
    on(event: 'open' | 'message' | 'error' | 'close', listener: (value: never) => void) {
      // One implementation behind the interface's four overloads: each event hands its listener
      // the value that overload names.
      const call = listener as (value?: unknown) => void;
      if (event === 'open') ws.addEventListener('open', () => call());
      else if (event === 'message') {
        ws.addEventListener('message', (e: MessageEvent) =>
          call(typeof e.data === 'string' ? e.data : decoder.decode(e.data as ArrayBuffer)),
        );
      } else if (event === 'error') {
        // The event says no more than that the socket failed; the close that follows carries the code.
        ws.addEventListener('error', () => call({ message: 'WebSocket error' }));
      } else closeListeners.push(call);
    },
  };
}
