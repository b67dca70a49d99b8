import { lazyChunk } from '../core/lazy-chunk.js';
import type { Recorder } from '../core/recorder.js';
import type { StreamSocket } from './socket-factory.js';

// The stream's code that loads on first use: the socket of a recording client (record-socket.ts,
// with the redaction of its lines), which the session loads before it makes a socket, so that no
// event of one goes unrecorded. A client that does not record never loads it.

/** record-socket.ts. */
export const loadRecordSocket = lazyChunk('stream recording', () => import('./record-socket.js'));

/**
 * What wraps each socket of a stream recording to `recorder`, once its code is loaded (a load that
 * fails rejects with ConfigurationError; the next connection tries again).
 */
export async function socketRecorder(
  recorder: Recorder,
): Promise<(socket: StreamSocket, url: string) => StreamSocket> {
  const { recordingSocket } = await loadRecordSocket();
  return (socket, url) => recordingSocket(socket, recorder, url);
}
