/**
 * Stream benchmark: `npx tsx bench/stream.ts [events]` (default 200,000).
 *
 * A worker thread runs the WebSocket server (the simulator's `attachWebSocket` over a fake
 * simulator whose market events the bench emits), so the client side has a core of its own.
 * The same burst of market-like events is read by (a) a raw `ws` client that JSON.parses each
 * message and (b) `connectStream(...).market()` consumed with `for await`. Reported: events per
 * second for each and the ratio stream / raw (target >= 0.8).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { WebSocket } from 'ws';
import { SUBPROTOCOL, TICKET_PROTOCOL_PREFIX, WS_PATH } from '../src/contract/ws-protocol.js';
import type { SimulatorEvent } from '../src/simulator/index.js';
import { attachWebSocket } from '../src/simulator/ws/server.js';
import { TicketAuthority } from '../src/simulator/ws/tickets.js';
import { connectStream } from '../src/stream/index.js';

export interface StreamBenchResult {
  events: number;
  runs: number;
  rawEventsPerSec: number;
  streamEventsPerSec: number;
  /** streamEventsPerSec / rawEventsPerSec (medians): the target metric. */
  ratio: number;
  /** Events per second of client-thread busy time (event-loop utilization), medians. */
  rawEventsPerBusySec: number;
  streamEventsPerBusySec: number;
  /** streamEventsPerBusySec / rawEventsPerBusySec: the client's own cost, whatever the server's speed. */
  busyRatio: number;
  target: number;
}

function auctionLike(i: number) {
  return {
    auctionId: i,
    phase: 'open',
    opensAt: '2026-01-01T00:00:00.000Z',
    locksAt: '2026-01-01T00:00:08.000Z',
    clearsAt: '2026-01-01T00:00:10.000Z',
    clearedAt: null,
    settledAt: null,
    clearingFeeBps: '5.00',
    matchedVolume: { amount: '1000000.00', currency: 'USD' },
    fillsCount: 12,
    orderCount: 40,
  };
}

/** Worker side: the server. Messages: {burst: n} -> emits n market events in chunks. */
async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('serve() runs in a worker');
  const tickets = await TicketAuthority.create({ now: Date.now, ttlMs: 60_000 });
  const listeners = new Set<(e: SimulatorEvent) => void>();
  const sim = {
    tickets,
    onEvent(l: (e: SimulatorEvent) => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    marketSnapshot: () => ({ auction: auctionLike(0), settling: null, lastClear: null }),
  };
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/ticket') {
      tickets.issue('bench').then((t) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: t }));
      });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  // The bench reads as fast as it can; let the server buffer the whole burst.
  const ws = attachWebSocket(sim, server, {
    replayBufferSize: 16,
    maxBufferedBytes: 2 ** 31,
    heartbeatIntervalMs: 0,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: httpPort } = server.address() as AddressInfo;
  port.on('message', (msg: { burst?: number; close?: boolean }) => {
    if (msg.close) {
      ws.close().then(() => server.close(() => port.close()));
      server.closeAllConnections();
      return;
    }
    const total = msg.burst ?? 0;
    let sent = 0;
    const chunk = () => {
      const end = Math.min(total, sent + 2000);
      for (; sent < end; sent++)
        for (const l of listeners) l({ channel: 'market', event: 'auction.opened', data: auctionLike(sent) });
      if (sent < total) setImmediate(chunk);
      else port.postMessage({ sent: total });
    };
    chunk();
  });
  port.postMessage({ port: httpPort });
}

/** Wall-clock rate, and the rate per second the client thread was busy (less sensitive to a loaded machine). */
interface RunResult {
  perSec: number;
  perBusySec: number;
}

async function ticketFrom(base: string): Promise<{ ticket: string; expiresAt: string }> {
  const res = await fetch(`${base}/ticket`, { method: 'POST' });
  return ((await res.json()) as { data: { ticket: string; expiresAt: string } }).data;
}

async function rawRun(worker: Worker, base: string, n: number): Promise<RunResult> {
  const { ticket } = await ticketFrom(base);
  const ws = new WebSocket(
    `${base.replace('http', 'ws')}${WS_PATH}`,
    [SUBPROTOCOL, `${TICKET_PROTOCOL_PREFIX}${ticket}`],
    {
      perMessageDeflate: false,
    },
  );
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let count = 0;
  let t0 = 0;
  let elu0 = performance.eventLoopUtilization();
  let busy = 0;
  const done = new Promise<number>((resolve) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; event?: string };
      if (frame.type !== 'event' || frame.event === 'auction.snapshot') {
        if (frame.event === 'auction.snapshot') {
          // Hold the socket until the whole burst is queued server-side: the client is then the bottleneck.
          ws.pause();
          burst(worker, n).then(() => {
            t0 = performance.now();
            elu0 = performance.eventLoopUtilization();
            ws.resume();
          });
        }
        return;
      }
      count += 1;
      if (count === n) {
        busy = performance.eventLoopUtilization(elu0).active;
        resolve(performance.now() - t0);
      }
    });
  });
  ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
  const ms = await done;
  ws.terminate();
  return { perSec: (n / ms) * 1000, perBusySec: (n / busy) * 1000 };
}

/** Asks the worker for n events; resolves once all are serialized and queued on the socket. */
function burst(worker: Worker, n: number): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (m: { sent?: number }) => {
      if (m.sent === undefined) return;
      worker.off('message', onMessage);
      resolve();
    };
    worker.on('message', onMessage);
    worker.postMessage({ burst: n });
  });
}

async function streamRun(worker: Worker, base: string, n: number): Promise<RunResult> {
  const stream = connectStream({
    wsUrl: base.replace('http', 'ws'),
    ticket: () => ticketFrom(base),
    async *listOrders() {},
  });
  const market = stream.market();
  const first = await market.next();
  if (first.done || first.value.event !== 'auction.snapshot') throw new Error('expected the snapshot first');
  // Not reading meanwhile: the iterator buffer fills and the client pauses the socket itself.
  await burst(worker, n);
  const t0 = performance.now();
  const elu0 = performance.eventLoopUtilization();
  let count = 0;
  for await (const _ of market) {
    count += 1;
    if (count === n) break;
  }
  const ms = performance.now() - t0;
  const busy = performance.eventLoopUtilization(elu0).active;
  await stream.close();
  return { perSec: (n / ms) * 1000, perBusySec: (n / busy) * 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

export async function benchStream(events = 200_000, runs = 5): Promise<StreamBenchResult> {
  // The worker runs this same file; it needs tsx's loader registered in its own thread.
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: { role: 'server' } });
  const httpPort = await new Promise<number>((resolve, reject) => {
    worker.once('message', (m: { port: number }) => resolve(m.port));
    worker.once('error', reject);
  });
  const base = `http://127.0.0.1:${httpPort}`;
  const raw: RunResult[] = [];
  const stream: RunResult[] = [];
  try {
    // Warm-up (JIT) with a smaller burst, then alternate so drift affects both equally.
    await rawRun(worker, base, Math.min(events, 20_000));
    await streamRun(worker, base, Math.min(events, 20_000));
    for (let i = 0; i < runs; i++) {
      raw.push(await rawRun(worker, base, events));
      stream.push(await streamRun(worker, base, events));
    }
  } finally {
    worker.postMessage({ close: true });
    await new Promise((resolve) => worker.once('exit', resolve));
  }
  const rawEventsPerSec = median(raw.map((r) => r.perSec));
  const streamEventsPerSec = median(stream.map((r) => r.perSec));
  const rawPerBusy = median(raw.map((r) => r.perBusySec));
  const streamPerBusy = median(stream.map((r) => r.perBusySec));
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    events,
    runs,
    rawEventsPerSec: Math.round(rawEventsPerSec),
    streamEventsPerSec: Math.round(streamEventsPerSec),
    ratio: round3(streamEventsPerSec / rawEventsPerSec),
    rawEventsPerBusySec: Math.round(rawPerBusy),
    streamEventsPerBusySec: Math.round(streamPerBusy),
    busyRatio: round3(streamPerBusy / rawPerBusy),
    target: 0.8,
  };
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === 'server') {
  await serve();
} else if (isMainThread && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const n = Number(process.argv[2] ?? 200_000);
  const r = await benchStream(n);
  console.log(`stream bench: ${r.events} market events, median of ${r.runs} runs`);
  console.log(`  raw ws (JSON.parse per message): ${r.rawEventsPerSec.toLocaleString('en-US')} events/s`);
  console.log(`  connectStream().market():        ${r.streamEventsPerSec.toLocaleString('en-US')} events/s`);
  console.log(`  ratio: ${r.ratio}x (target >= ${r.target}x) ${r.ratio >= r.target ? 'OK' : 'BELOW TARGET'}`);
  console.log(
    `  per busy second of the client thread: raw ${r.rawEventsPerBusySec.toLocaleString('en-US')}, stream ${r.streamEventsPerBusySec.toLocaleString('en-US')} (${r.busyRatio}x)`,
  );
}
