/**
 * Fan-out latency of the simulator's WebSocket endpoint against a bare `ws` server:
 *   npx tsx bench/fanout.ts [--sockets N] [--rounds R] [--smoke] [--before <tree>/src/simulator/index.ts]
 *
 * Each server runs in its own child process on loopback (port 0); N sockets to each (default
 * 1,000) live in this process. A simulator round: `POST /_sim/auctions/clear`, and each socket
 * subscribed to the market channel times the moment its `auction.cleared` frame arrives, from just
 * before the request was sent (the clear request is included). A bare round: `POST /broadcast`,
 * and the bare server sends one JSON frame of the same size (the simulator's frame, measured in the
 * warm-up round) to every socket, `ws`'s own broadcast loop. Rounds are interleaved in a rotating
 * order; each round's p50 and p99 over its sockets are divided by the bare server's in the same
 * round, and the median ratio is reported (target: p99 within 2x). Bounded: R rounds (default 15),
 * each waiting at most 10 s.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WebSocket } from 'ws';

export interface FanoutBenchRow {
  server: string;
  sockets: number;
  rounds: number;
  /** Median over rounds of that round's median / 99th percentile delivery time, ms. */
  p50Ms: number;
  p99Ms: number;
  /** Median over rounds of this server's p50 / p99 over the bare server's in the same round. */
  p50Ratio: number;
  p99Ratio: number;
}

interface Ready {
  port: number;
  /** Tickets for the simulator's sockets (none for the bare server). */
  tickets: string[];
  protocol?: string;
  path?: string;
}

interface Target extends Ready {
  name: string;
  kind: 'sim' | 'bare';
  child: ChildProcess;
  sockets: WebSocket[];
  /** Resolves each socket's wait for the round's frame. */
  waiting: ((at: number, bytes: number) => void)[];
}

const SELF = fileURLToPath(import.meta.url);
const DEFAULT_SIM = fileURLToPath(new URL('../src/simulator/index.ts', import.meta.url));
const ROUND_TIMEOUT_MS = 10_000;

function start(kind: 'sim' | 'bare', simPath: string, name: string, sockets: number): Promise<Target> {
  const child = fork(SELF, ['--serve', kind, simPath, String(sockets)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 60 s`)), 60_000);
    child.once('error', reject);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve({ name, kind, child, sockets: [], waiting: [], ...(m as Ready) });
    });
  });
}

function post(port: number, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens the target's sockets (the simulator's subscribed to the market channel), in batches. */
async function connect(t: Target, count: number): Promise<void> {
  const open = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const url = `ws://127.0.0.1:${t.port}${t.path ?? '/'}`;
      const ws =
        t.kind === 'sim'
          ? new WebSocket(url, [t.protocol ?? '', `ticket.${t.tickets[i]}`])
          : new WebSocket(url);
      ws.once('error', reject);
      ws.on('message', (data) => {
        const text = data.toString();
        const frame = JSON.parse(text) as { type?: string; event?: string; channel?: string };
        if (t.kind === 'sim') {
          if (frame.type === 'hello') ws.send(JSON.stringify({ op: 'subscribe', channel: 'market' }));
          else if (frame.type === 'subscribed') resolve();
          else if (frame.event === 'auction.cleared') t.waiting[i]?.(performance.now(), text.length);
          return;
        }
        t.waiting[i]?.(performance.now(), text.length);
      });
      if (t.kind === 'bare') ws.once('open', () => resolve());
      t.sockets[i] = ws;
    });
  for (let i = 0; i < count; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, k) => open(i + k)));
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** One round: the trigger, then every socket's delivery time; rejects after ROUND_TIMEOUT_MS. */
async function round(t: Target, frameBytes: number): Promise<{ times: number[]; bytes: number }> {
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const t0 = performance.now();
  const arrivals = t.sockets.map(
    (_, i) =>
      new Promise<number>((resolve) => {
        t.waiting[i] = (at, size) => {
          t.waiting[i] = () => {};
          bytes = size;
          resolve(at - t0);
        };
      }),
  );
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${t.name}: round not delivered in 10 s`)), ROUND_TIMEOUT_MS);
  });
  const status =
    t.kind === 'sim'
      ? await post(t.port, '/_sim/auctions/clear', '')
      : await post(t.port, '/broadcast', JSON.stringify({ bytes: frameBytes }));
  if (status !== 200) throw new Error(`${t.name}: trigger answered ${status}`);
  try {
    const times = await Promise.race([Promise.all(arrivals), timeout]);
    return { times: times.sort((a, b) => a - b), bytes };
  } finally {
    clearTimeout(timer);
  }
}

export async function benchFanout(
  options: { sockets?: number; rounds?: number; before?: string } = {},
): Promise<{ rows: FanoutBenchRow[]; frameBytes: number }> {
  const sockets = options.sockets ?? 1_000;
  const rounds = options.rounds ?? 15;
  const targets: Target[] = [];
  try {
    targets.push(await start('bare', DEFAULT_SIM, 'bare ws', sockets));
    targets.push(await start('sim', DEFAULT_SIM, 'simulator', sockets));
    if (options.before) targets.push(await start('sim', options.before, 'simulator (before)', sockets));
    for (const t of targets) await connect(t, sockets);
    // Warm-up, unmeasured: the simulator's frame size is read here, and the JIT warms everywhere.
    let frameBytes = 0;
    for (let w = 0; w < 3; w++) {
      for (const t of targets.filter((x) => x.kind === 'sim')) frameBytes = (await round(t, 0)).bytes;
      for (const t of targets.filter((x) => x.kind === 'bare')) await round(t, frameBytes);
    }
    const samples = new Map<string, { p50: number; p99: number }[]>();
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < targets.length; i++) {
        const t = targets[(i + r) % targets.length] as Target;
        const { times } = await round(t, frameBytes);
        samples.set(t.name, [
          ...(samples.get(t.name) ?? []),
          { p50: percentile(times, 50), p99: percentile(times, 99) },
        ]);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const bare = samples.get('bare ws') ?? [];
    const rows = targets.map((t) => {
      const s = samples.get(t.name) ?? [];
      return {
        server: t.name,
        sockets,
        rounds,
        p50Ms: Number(median(s.map((x) => x.p50)).toFixed(2)),
        p99Ms: Number(median(s.map((x) => x.p99)).toFixed(2)),
        p50Ratio: Number(median(s.map((x, i) => x.p50 / (bare[i]?.p50 ?? Number.NaN))).toFixed(2)),
        p99Ratio: Number(median(s.map((x, i) => x.p99 / (bare[i]?.p99 ?? Number.NaN))).toFixed(2)),
      };
    });
    return { rows, frameBytes };
  } finally {
    for (const t of targets) {
      for (const ws of t.sockets) ws?.terminate();
      // A disconnect lets the child close and exit by itself (a --cpu-prof child writes its profile).
      if (t.child.connected) t.child.disconnect();
      setTimeout(() => t.child.kill(), 5_000).unref();
    }
  }
}

/** Child mode: one server on loopback; reports its port (and the simulator's tickets) to the parent. */
async function serve(kind: string, simPath: string, sockets: number): Promise<void> {
  if (kind === 'sim') {
    const { createSimulator, SEEDED } = await import(pathToFileURL(simPath).href);
    const { SUBPROTOCOL, WS_PATH } = await import('../src/contract/ws-protocol.js');
    const sim = createSimulator({ clock: 'manual' });
    const running = await sim.listen({ port: 0 });
    const tickets: string[] = [];
    for (let i = 0; i < sockets; i++) tickets.push((await sim.tickets.issue(SEEDED.burner.entityId)).ticket);
    process.once('disconnect', () => void running.close().then(() => process.exit(0)));
    process.send?.({
      port: Number(new URL(running.url).port),
      tickets,
      protocol: SUBPROTOCOL,
      path: WS_PATH,
    });
    return;
  }
  const { createServer } = await import('node:http');
  const { WebSocketServer } = await import('ws');
  const server = createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  let n = 0;
  server.on('request', (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const { bytes } = JSON.parse(body) as { bytes: number };
      res.writeHead(200, { 'content-length': '0' });
      res.end();
      // A fresh frame of the requested size per broadcast, serialized once, sent to every client.
      n += 1;
      const base = JSON.stringify({ type: 'event', n, pad: '' });
      const frame = JSON.stringify({ type: 'event', n, pad: 'x'.repeat(Math.max(0, bytes - base.length)) });
      for (const client of wss.clients) client.send(frame);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.once('disconnect', () => {
      for (const client of wss.clients) client.terminate();
      server.close();
      process.exit(0);
    });
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0, tickets: [] });
  });
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) {
  await serve(
    process.argv[serveAt + 1] ?? 'sim',
    process.argv[serveAt + 2] ?? DEFAULT_SIM,
    Number(process.argv[serveAt + 3] ?? 1_000),
  );
} else if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const smoke = args.includes('--smoke');
  const before = value('--before');
  const { rows, frameBytes } = await benchFanout({
    sockets: Number(value('--sockets') ?? (smoke ? 50 : 1_000)),
    rounds: Number(value('--rounds') ?? (smoke ? 3 : 15)),
    ...(before ? { before } : {}),
  });
  console.log(`node ${process.version}, ${new Date().toISOString()}, frame ${frameBytes} bytes`);
  console.table(rows);
}
