import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the proxy read in full and kept back from the server. */
interface Held {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface HoldingProxy {
  url: string;
  /** Requests read in full and never forwarded so far. */
  readonly held: number;
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
 * the end and then kept, unanswered (the client sees a timeout after its body was sent); all
 * others are forwarded and their answers passed back.
 */
export async function startHoldingProxy(
  target: string,
  hold: (req: { method: string; path: string; body: string }) => boolean,
): Promise<HoldingProxy> {
  const held: Held[] = [];
  const forward = async (r: Held) => {
    const res = await fetch(target + r.path, {
      method: r.method,
      headers: r.headers,
      body: r.body === '' ? undefined : r.body,
    });
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
      if (hold(r)) {
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
