/**
 * A minimal HTTP/1.1 client over a raw `node:net` socket: it writes whatever bytes it is given
 * (broken framing included) and parses the answers in order, so a test or the fuzz driver can see
 * exactly what the server puts on the wire and whether a keep-alive connection still answers.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names lowercased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

/** What `next()` saw: an answer, the connection closing first, or nothing in time. */
export type RawOutcome = RawResponse | 'closed' | 'timeout';

const HEADER_END = Buffer.from('\r\n\r\n');

export class RawConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | undefined;
  /** Resolves when the socket is closed (by either side). */
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.wake?.();
    });
    // A reset after the answer (or while we still write) is part of what is being observed.
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        this.wake?.();
        resolve();
      }),
    );
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  get isClosed(): boolean {
    return this.ended;
  }

  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  /** Closes our side abruptly (a client hanging up). */
  destroy(): void {
    this.socket.destroy();
  }

  /** The next complete answer (interim 1xx answers skipped). `head`: the request was a HEAD. */
  async next(timeoutMs: number, head = false): Promise<RawOutcome> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.tryParse(head);
      if (parsed === 'interim') continue;
      if (parsed) return parsed;
      if (this.ended) return 'closed';
      const left = deadline - Date.now();
      if (left <= 0) return 'timeout';
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private tryParse(head: boolean): RawResponse | 'interim' | undefined {
    const end = this.buffer.indexOf(HEADER_END);
    if (end < 0) return undefined;
    const lines = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? Number.NaN);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const start = end + HEADER_END.length;
    if (status >= 100 && status < 200) {
      this.buffer = this.buffer.subarray(start);
      return 'interim';
    }
    let bodyEnd: number;
    let body: Buffer;
    if (head || status === 204 || status === 304) {
      bodyEnd = start;
      body = Buffer.alloc(0);
    } else if (headers['content-length'] !== undefined) {
      bodyEnd = start + Number(headers['content-length']);
      if (this.buffer.length < bodyEnd) return undefined;
      body = this.buffer.subarray(start, bodyEnd);
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const chunked = parseChunked(this.buffer, start);
      if (!chunked) return undefined;
      [body, bodyEnd] = chunked;
    } else {
      // No length: the body runs to the end of the connection.
      if (!this.ended) return undefined;
      bodyEnd = this.buffer.length;
      body = this.buffer.subarray(start);
    }
    this.buffer = this.buffer.subarray(bodyEnd);
    return { status, headers, body: Buffer.from(body) };
  }
}

function parseChunked(buffer: Buffer, from: number): [Buffer, number] | undefined {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16);
    at = lineEnd + 2;
    if (size === 0) {
      const trailerEnd = buffer.indexOf('\r\n', at);
      if (trailerEnd < 0) return undefined;
      return [Buffer.concat(parts), trailerEnd + 2];
    }
    if (buffer.length < at + size + 2) return undefined;
    parts.push(buffer.subarray(at, at + size));
    at += size + 2;
  }
}

/** The bytes of one request; `body` sets Content-Length unless `headers` already frame it. */
export function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Buffer {
  const all: Record<string, string> = { host: '127.0.0.1', ...headers };
  const framed = Object.keys(all).some((h) => /^(content-length|transfer-encoding)$/i.test(h));
  if (body !== undefined && !framed) all['content-length'] = String(Buffer.byteLength(body));
  const head = `${method} ${path} HTTP/1.1\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  return body === undefined
    ? Buffer.from(head, 'latin1')
    : Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body)]);
}
