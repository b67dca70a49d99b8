/**
 * One recorded WebSocket connection, opened again on the probe's simulator: a ticket for the mapped
 * entity, the protocol's handshake, the recorded client frames sent in order. Every send is followed
 * by a ping whose pong is awaited: the server answers frames in order, so once the pong is in, every
 * frame the send caused (its `subscribed`, a snapshot, a replay) has arrived. `drain` is that barrier
 * alone, taken before the recorded close and at the end of the cassette.
 */
import { WebSocket } from 'ws';
import { SUBPROTOCOL, TICKET_PROTOCOL_PREFIX } from '../../contract/ws-protocol.js';
import type { StreamEvent } from './events.js';

/** How long the probe waits for its own simulator to answer a frame before it calls it stuck. */
const ANSWER_TIMEOUT_MS = 10_000;

type Frame = Record<string, unknown>;

export class ProbeSocket {
  /** The `event` frames received, in order. */
  readonly events: StreamEvent[] = [];
  /** The last `seq` received per channel (a recorded `since` is rewritten to it). */
  readonly lastSeq = new Map<string, number>();
  private readonly waiters = new Set<{ match: (f: Frame) => boolean; done: (ok: boolean) => void }>();
  private closed = false;
  private pings = 0;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.receive(String(data)));
    socket.on('close', () => {
      this.closed = true;
      for (const w of this.waiters) w.done(false);
      this.waiters.clear();
    });
  }

  /** Opens the connection and waits for the server's hello. */
  static async open(wsUrl: string, ticket: string): Promise<ProbeSocket> {
    const socket = new WebSocket(wsUrl, [SUBPROTOCOL, `${TICKET_PROTOCOL_PREFIX}${ticket}`]);
    const probe = new ProbeSocket(socket);
    const hello = probe.until((f) => f.type === 'hello');
    // Errors surface as the open's refusal below, or as a close.
    socket.on('error', () => {});
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
        socket.once('unexpected-response', (_req, res) =>
          reject(new Error(`the simulator refused the WebSocket upgrade: ${res.statusCode}`)),
        );
      });
    } catch (err) {
      hello.catch(() => {});
      socket.terminate();
      throw err;
    }
    await hello;
    return probe;
  }

  private receive(text: string): void {
    let frame: Frame;
    try {
      frame = JSON.parse(text) as Frame;
    } catch {
      return;
    }
    if (frame.type === 'event' && typeof frame.channel === 'string' && typeof frame.event === 'string') {
      this.events.push({ channel: frame.channel, event: frame.event, data: frame.data });
      // The snapshot carries the seq it is consistent with: not a new one.
      if (typeof frame.seq === 'number' && frame.event !== 'auction.snapshot')
        this.lastSeq.set(frame.channel, frame.seq);
    }
    for (const w of this.waiters)
      if (w.match(frame)) {
        this.waiters.delete(w);
        w.done(true);
      }
  }

  /** Resolves true at the first frame matching, false if the socket closes first. */
  private until(match: (f: Frame) => boolean): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`the probe's simulator did not answer within ${ANSWER_TIMEOUT_MS} ms`));
      }, ANSWER_TIMEOUT_MS);
      const waiter = {
        match,
        done: (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** Sends a recorded client frame, then waits until everything it caused has arrived. */
  async send(frame: unknown): Promise<void> {
    if (this.closed) return;
    this.socket.send(JSON.stringify(frame));
    await this.drain();
  }

  /** Waits until every frame the server sent so far has arrived (a ping's pong, in order behind them). */
  async drain(): Promise<void> {
    if (this.closed) return;
    const id = `probe-drain-${++this.pings}`;
    const pong = this.until((f) => f.type === 'pong' && f.id === id);
    this.socket.send(JSON.stringify({ op: 'ping', id }));
    await pong;
  }

  /** Drains, then closes and waits for the close. */
  async close(): Promise<void> {
    await this.drain();
    if (this.closed) return;
    const done = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    this.socket.close(1000);
    await done;
  }
}
