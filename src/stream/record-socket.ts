import type { CassetteJson, CassetteWs } from '../contract/cassette.js';
import { recordEntry } from '../core/record-entry.js';
import type { Recorder } from '../core/recorder.js';
import type { SocketData, StreamSocket } from './socket-factory.js';

// The socket of a recording client's stream (docs/CASSETTES.md): the session's socket, with one `ws`
// line for its opening, every frame each way and its close. The session wraps a socket only when
// its client records, and loads this chunk before it opens one (load.ts). The ticket travels in the handshake's protocol list, which is never written:
// the `open` line names the protocol the server selected.

/** A frame's text parsed, or the text itself when it is not JSON. */
function frameOf(text: string): CassetteJson {
  try {
    return JSON.parse(text) as CassetteJson;
  } catch {
    return text;
  }
}

/** `url` without its query (a venue's address never needs one; a secret could ride in it). */
function withoutQuery(url: string): string {
  const at = url.search(/[?#]/);
  return at === -1 ? url : url.slice(0, at);
}

/**
 * `socket` with its life written to `recorder` as `ws` lines of a new connection number. Its own
 * listeners are attached before the session's, so a frame is on disk before the stream handles it.
 */
export function recordingSocket(socket: StreamSocket, recorder: Recorder, url: string): StreamSocket {
  const connection = recorder.nextConnection();
  const line = (event: CassetteWs['event'], fields: Partial<CassetteWs> = {}): void =>
    recordEntry(recorder, {
      kind: 'ws',
      at: new Date().toISOString(),
      connection,
      keyId: recorder.keyId,
      event,
      ...fields,
    });
  socket.on('open', () => line('open', { url: withoutQuery(url), protocol: socket.protocol }));
  socket.on('message', (data: SocketData) => line('receive', { frame: frameOf(data.toString()) }));
  socket.on('close', (code) => line('close', { code }));
  return {
    get readyState() {
      return socket.readyState;
    },
    get protocol() {
      return socket.protocol;
    },
    send(text) {
      line('send', { frame: frameOf(text) });
      socket.send(text);
    },
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    terminate: () => socket.terminate(),
    on(event: 'open' | 'message' | 'error' | 'close', listener: (value: never) => void) {
      // One implementation behind the interface's four overloads, handing each on as it came.
      socket.on(event as 'open', listener as () => void);
    },
  };
}
