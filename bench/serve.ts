/**
 * HTTP serving cost of the simulator against a bare node:http server answering the same bytes:
 *   npx tsx bench/serve.ts [--smoke] [--before <tree>/src/simulator/index.ts]
 *
 * Each server runs in its own child process (loopback, port 0) so that the load generator
 * (autocannon, 64 keep-alive connections, in this process) never shares its thread. Rounds are
 * paired and interleaved in a rotating order: on a shared machine drift between rounds is larger
 * than the effect measured, so each round's simulator rate is divided by the bare server's rate
 * in the same round and the median ratio is reported. `--before` adds the simulator of another
 * tree (the code before a change) to the same rounds.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

export interface ServeBenchRow {
  server: string;
  route: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Median over rounds of this server's rate / the bare server's rate in the same round. */
  ratioToBare: number;
}

interface Target {
  name: string;
  url: string;
  child: ChildProcess;
}

interface Ready {
  port: number;
  orderId: string;
  auctionId: number;
}

const SELF = fileURLToPath(import.meta.url);
const DEFAULT_SIM = fileURLToPath(new URL('../src/simulator/index.ts', import.meta.url));

/** The two routes measured: one GET and one POST, with the seeded burner's key. */
function routes(ready: Ready, apiKey: string) {
  const headers = { authorization: `Bearer ${apiKey}`, host: '127.0.0.1' };
  return [
    {
      route: 'GET /v1/match/orders/{id}',
      method: 'GET' as const,
      path: `/v1/match/orders/${ready.orderId}`,
      headers,
    },
    {
      route: 'POST /v1/match/orders/modify',
      method: 'POST' as const,
      path: '/v1/match/orders/modify',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ auctionId: ready.auctionId, orderId: ready.orderId, feeBps: '3' }),
    },
  ];
}

function start(kind: 'sim' | 'bare', simPath: string, name: string): Promise<Target & Ready> {
  // Through tsx (the parent's loader is inherited by fork), so source trees load as they are.
  const child = fork(SELF, ['--serve', kind, simPath], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 30 s`)), 30_000);
    child.once('error', reject);
    child.once('message', (m) => {
      clearTimeout(timer);
      const ready = m as Ready;
      resolve({ name, url: `http://127.0.0.1:${ready.port}`, child, ...ready });
    });
  });
}

async function load(url: string, route: ReturnType<typeof routes>[number], seconds: number) {
  const result = await autocannon({
    url: `${url}${route.path}`,
    method: route.method,
    headers: route.headers,
    ...(route.body ? { body: route.body } : {}),
    connections: 64,
    pipelining: 1,
    duration: seconds,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${url}${route.path}: ${bad} failed answers (non-2xx, errors, timeouts)`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

export async function benchServe(
  options: { smoke?: boolean; before?: string; rounds?: number; seconds?: number } = {},
): Promise<ServeBenchRow[]> {
  const rounds = options.rounds ?? (options.smoke ? 1 : 5);
  const seconds = options.seconds ?? (options.smoke ? 1 : 3);
  const { SEEDED } = await import('../src/simulator/index.js');
  const targets: (Target & Ready)[] = [];
  try {
    targets.push(await start('bare', DEFAULT_SIM, 'bare node:http'));
    targets.push(await start('sim', DEFAULT_SIM, 'simulator'));
    if (options.before) targets.push(await start('sim', options.before, 'simulator (before)'));
    const rows: ServeBenchRow[] = [];
    for (const [r, route] of routes(targets[0] as Ready, SEEDED.burner.apiKey).entries()) {
      const samples = new Map<string, { rps: number; p50: number; p99: number }[]>();
      // One unmeasured second each: the JIT and the connections warm before any round counts.
      for (const t of targets) await load(t.url, routes(t, SEEDED.burner.apiKey)[r] ?? route, 1);
      for (let round = 0; round < rounds; round++) {
        // Rotating order within the round, so no server always runs first (or last) on a warm machine.
        for (let i = 0; i < targets.length; i++) {
          const t = targets[(i + round) % targets.length] as Target & Ready;
          const own = routes(t, SEEDED.burner.apiKey)[r] ?? route;
          const s = await load(t.url, own, seconds);
          samples.set(t.name, [...(samples.get(t.name) ?? []), s]);
        }
      }
      const bare = samples.get('bare node:http') ?? [];
      for (const t of targets) {
        const s = samples.get(t.name) ?? [];
        rows.push({
          server: t.name,
          route: route.route,
          requestsPerSecond: Math.round(median(s.map((x) => x.rps))),
          p50Ms: median(s.map((x) => x.p50)),
          p99Ms: median(s.map((x) => x.p99)),
          ratioToBare: Number(median(s.map((x, i) => x.rps / (bare[i]?.rps ?? Number.NaN))).toFixed(3)),
        });
      }
    }
    return rows;
  } finally {
    for (const t of targets) t.child.kill();
  }
}

/** Child mode: one server on loopback; reports its port and a resting order to the parent. */
async function serve(kind: string, simPath: string): Promise<void> {
  const { createSimulator, SEEDED } = await import(pathToFileURL(simPath).href);
  const sim = createSimulator({ clock: 'manual' });
  const auth = { authorization: `Bearer ${SEEDED.burner.apiKey}`, 'content-type': 'application/json' };
  const placed = await sim.handle(
    new Request('http://127.0.0.1/v1/match/orders', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        idempotencyKey: crypto.randomUUID(),
        orderType: 'BURN',
        amount: { amount: '100.00', currency: 'USD' },
        feeBps: '2',
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      }),
    }),
  );
  const order = (await placed.json()).data as { orderId: string; auctionId: number };
  const ready = { orderId: order.orderId, auctionId: order.auctionId };
  if (kind === 'sim') {
    const running = await sim.listen({ port: 0 });
    process.once('disconnect', () => void running.close().then(() => process.exit(0)));
    process.send?.({ port: new URL(running.url).port, ...ready });
    return;
  }
  // The same bytes the simulator answers, captured once, then served with no work per request.
  const { createServer } = await import('node:http');
  const capture = async (req: Request) => {
    const res = await sim.handle(req);
    return {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: Buffer.from(await res.arrayBuffer()),
    };
  };
  const get = await capture(
    new Request(`http://127.0.0.1/v1/match/orders/${order.orderId}`, { headers: auth }),
  );
  const post = await capture(
    new Request('http://127.0.0.1/v1/match/orders/modify', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ auctionId: order.auctionId, orderId: order.orderId, feeBps: '3' }),
    }),
  );
  const server = createServer({ keepAlive: true }, (req, res) => {
    const answer = req.method === 'POST' ? post : get;
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
      res.end(answer.body);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.once('disconnect', () => {
      server.close();
      server.closeAllConnections();
      process.exit(0);
    });
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0, ...ready });
  });
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) await serve(process.argv[serveAt + 1] ?? 'sim', process.argv[serveAt + 2] ?? DEFAULT_SIM);
else if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const beforeAt = process.argv.indexOf('--before');
  const before = beforeAt >= 0 ? process.argv[beforeAt + 1] : undefined;
  const rows = await benchServe({ smoke: process.argv.includes('--smoke'), ...(before ? { before } : {}) });
  console.table(rows);
}
