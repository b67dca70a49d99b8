import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the proxy read in full and kept back from the server. */
interface Held {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * What the proxy does with one request: `false` forwards it and passes the answer back; `true`
 * holds it (never forwarded until `release()`); `'lose-answer'` forwards it at once but keeps the
 * answer back, as a connection that broke after the server did the work would; `'reset-after'`
 * forwards it and, once the server has answered, resets the client's connection (ECONNRESET).
 */
export type Handling = boolean | 'lose-answer' | 'reset-after';

/** A request the proxy forwarded and the server's status for it. */
export interface Forwarded {
  method: string;
  path: string;
  status: number;
  /** True when the client never got this answer ('lose-answer', 'reset-after'). */
  lost: boolean;
}

export interface HoldingProxy {
  url: string;
  /** Requests read in full and never forwarded so far. */
  readonly held: number;
  /** Every request forwarded so far, in the order the server answered them. */
  readonly forwarded: readonly Forwarded[];
  /**
   * Forwards every held request to the server now (the client gave up on them long ago), as a
   * network that delivered them late would; resolves with the server's statuses.
   */
  release(): Promise<number[]>;
  close(): Promise<void>;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'host' || name === 'connection' || name === 'content-length' || value === undefined)
      continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * A loopback HTTP proxy in front of `target`: requests for which `hold` answers true are read to
 * the end and then kept, unanswered (the client sees a timeout after its body was sent); those it
 * answers 'lose-answer' reach the server but not their answer; all others are forwarded and their
 * answers passed back.
 */
export async function startHoldingProxy(
  target: string,
  hold: (req: { method: string; path: string; body: string }) => Handling,
): Promise<HoldingProxy> {
  const held: Held[] = [];
  const forwarded: Forwarded[] = [];
  const forward = async (r: Held, lost = false) => {
    const res = await fetch(target + r.path, {
      method: r.method,
      headers: r.headers,
      body: r.body === '' ? undefined : r.body,
    });
    forwarded.push({ method: r.method, path: r.path, status: res.status, lost });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Held = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: headersOf(req),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const handling = hold(r);
      if (handling === 'reset-after') {
        forward(r, true).then(
          () => res.socket?.resetAndDestroy(),
          () => res.destroy(),
        );
        return;
      }
      if (handling === 'lose-answer') {
        // The server does the work; the client waits on a socket that never answers.
        forward(r, true).catch(() => {});
        return;
      }
      if (handling) {
        held.push(r);
        return;
      }
      forward(r).then(
        (answer) => {
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
          });
          res.end(answer.text);
        },
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get held() {
      return held.length;
    },
    forwarded,
    async release() {
      const statuses: number[] = [];
      for (const r of held.splice(0)) statuses.push((await forward(r)).status);
      return statuses;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
