/**
 * The stream side of a replay: a loopback WebSocket server that plays, on each socket, the recorded
 * connection its replay ticket names. Received frames are sent in recorded order, each once the
 * write recorded before it has been answered (an `order.accepted` never overtakes the place it
 * follows); a recorded client frame waits for the client's next frame; the client's pings are
 * answered whenever they come. A socket whose ticket names no recorded connection (the client
 * opened more than were recorded) stays open and idle, answering pings only: an extra reconnect
 * then neither ends the stream nor loops. A ticket this replay never issued, or one used twice, is
 * refused with 401, as the venue refuses it.
 */
import { createServer, type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ConfigurationError } from 'match-venue';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { TICKET_PROTOCOL_PREFIX, WS_PATH } from '../../contract/ws-protocol.js';
import type { Progress } from './answers.js';
import type { RecordedConnection } from './book.js';

/** What the socket server needs of the REST side. */
export interface TicketDesk {
  redeem(ticket: string | undefined): { connection: RecordedConnection | undefined } | undefined;
  readonly progress: Progress;
}

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ code: status, message });
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  return typeof header === 'string' ? header.split(',').map((p) => p.trim()) : [];
}

// Close codes a close frame may carry (RFC 6455 7.4); 1005, 1006 and 1015 only describe a close.
const sendable = (code: number) =>
  (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);

/** The client's frames on one socket: pings answered at once, the others queued for the play. */
class ClientFrames {
  private readonly queue: string[] = [];
  private waiter: ((frame: string | undefined) => void) | undefined;
  private closed = false;

  constructor(ws: WebSocket) {
    ws.on('message', (data: RawData) => {
      const text = data.toString();
      let frame: { op?: unknown; id?: unknown } | undefined;
      try {
        frame = JSON.parse(text) as typeof frame;
      } catch {
        frame = undefined;
      }
      if (frame?.op === 'ping') {
        const id = frame.id === undefined ? {} : { id: frame.id };
        ws.send(JSON.stringify({ type: 'pong', ...id, ts: new Date().toISOString() }));
        return;
      }
      this.push(text);
    });
    ws.on('close', () => {
      this.closed = true;
      this.waiter?.(undefined);
      this.waiter = undefined;
    });
  }

  private push(text: string): void {
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = undefined;
      wake(text);
    } else this.queue.push(text);
  }

  /** The client's next frame (not a ping); undefined once the socket closed. */
  next(): Promise<string | undefined> {
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }
}

/** Plays `connection` on `ws` until its steps run out or the socket closes. */
async function play(ws: WebSocket, connection: RecordedConnection | undefined, desk: TicketDesk) {
  const frames = new ClientFrames(ws);
  const gone = new Promise<'gone'>((resolve) => ws.once('close', () => resolve('gone')));
  const open = () => ws.readyState === ws.OPEN;
  for (const step of connection?.steps ?? []) {
    if (step.kind === 'send') {
      // The recorded client frame is not compared: the client's next frame stands for it.
      if ((await frames.next()) === undefined) return;
      continue;
    }
    if (step.kind === 'close' && !step.byServer) return; // the client closes it, as it did
    if ((await Promise.race([desk.progress.answeredAt(step.gate), gone])) === 'gone' || !open()) return;
    // A frame that was not JSON was recorded as its text: sent as that text.
    if (step.kind === 'receive')
      ws.send(typeof step.frame === 'string' ? step.frame : JSON.stringify(step.frame));
    else if (sendable(step.code)) ws.close(step.code);
    else ws.terminate();
  }
}

/** The running socket server of one replay. */
export class ReplaySocketServer {
  private starting: Promise<string> | undefined;
  private server: Server | undefined;
  private readonly sockets = new Set<WebSocket>();
  private closed = false;

  constructor(private readonly desk: TicketDesk) {}

  /**
   * The WebSocket base URL (`ws://127.0.0.1:<port>`, the socket at `/v1/match/ws`), listening from
   * the first call on; the server is unref'd, so it never keeps a process alive.
   */
  url(): Promise<string> {
    if (this.closed)
      return Promise.reject(
        new ConfigurationError('This replay is closed: create another one to stream from it'),
      );
    this.starting ??= this.listen();
    return this.starting;
  }

  private listen(): Promise<string> {
    const wss = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      // The client's own subprotocol, whatever its name; the ticket is never echoed back.
      handleProtocols: (protocols) =>
        [...protocols].find((p) => !p.startsWith(TICKET_PROTOCOL_PREFIX)) ?? false,
    });
    const server = createServer((_req, res) => {
      res.writeHead(404).end();
    });
    this.server = server;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      if (new URL(req.url ?? '/', 'http://localhost').pathname !== WS_PATH) {
        refuse(socket, 404, 'no WebSocket endpoint at this path');
        return;
      }
      const ticket = offeredProtocols(req)
        .find((p) => p.startsWith(TICKET_PROTOCOL_PREFIX))
        ?.slice(TICKET_PROTOCOL_PREFIX.length);
      const redeemed = this.desk.redeem(ticket);
      if (!redeemed) {
        refuse(socket, 401, ticket === undefined ? 'ticket missing' : 'ticket invalid');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        this.sockets.add(ws);
        ws.on('close', () => this.sockets.delete(ws));
        ws.on('error', () => ws.terminate());
        void play(ws, redeemed.connection, this.desk);
      });
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.unref();
        const address = server.address();
        resolve(`ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
      });
    });
  }

  /** Terminates every socket and stops listening. */
  async close(): Promise<void> {
    this.closed = true;
    await this.starting?.catch(() => undefined);
    for (const ws of this.sockets) ws.terminate();
    const server = this.server;
    if (server?.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
