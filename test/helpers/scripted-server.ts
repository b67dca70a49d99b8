import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Step = (req: SeenRequest, res: ServerResponse) => void;

/** A loopback HTTP server answering each request with the next scripted step. */
export interface ScriptedServer {
  url: string;
  seen: SeenRequest[];
  /** Resolves with `seen` once `count` requests arrived: a test waits on that, not on timing. */
  arrived(count: number): Promise<SeenRequest[]>;
  script(...steps: Step[]): void;
  close(): Promise<void>;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Step {
  return (_req, res) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': `req-${status}`,
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
}

/** Never answers (until the client gives up and the socket closes). */
export const hang: Step = () => {};

/** Sends the headers and then a byte every 10 ms, never finishing the body. */
export const drip: Step = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{');
  const timer = setInterval(() => res.write(' '), 10);
  res.on('close', () => clearInterval(timer));
};

/** Drops the connection without a response. */
export const drop: Step = (_req, res) => {
  res.socket?.destroy();
};

export async function startScriptedServer(): Promise<ScriptedServer> {
  const seen: SeenRequest[] = [];
  let steps: Step[] = [];
  const open = new Set<ServerResponse>();
  const waiting = new Set<{ count: number; resolve: (seen: SeenRequest[]) => void }>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(record);
      for (const w of waiting) {
        if (seen.length >= w.count) {
          waiting.delete(w);
          w.resolve(seen);
        }
      }
      open.add(res);
      res.on('close', () => open.delete(res));
      const step = steps.shift() ?? json(500, { code: -1, message: 'no scripted step left' });
      step(record, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    arrived: (count) =>
      seen.length >= count
        ? Promise.resolve(seen)
        : new Promise((resolve) => waiting.add({ count, resolve })),
    script: (...s) => {
      steps = s;
    },
    close: async () => {
      for (const res of open) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A sleep that records the requested delays and returns at once. */
export function recordingSleep(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  };
}
