/**
 * Many dashboards against one simulator (issue 33, point 3): REST latency with 0 and then N pages
 * reading `/_sim/ui/events`, and the server's memory while M pages read nothing at all.
 *
 *   npx tsx bench/dashboard-clients.ts [--clients 1000] [--stalled 200] [--phase-s 10]
 *       [--stall-s 12] [--cycle-ms 2000] [--sim /path/to/src/simulator/index.ts] [--smoke] [--json]
 *
 * Three processes, so that neither the pages' reading nor the measuring runs on the simulator's
 * thread: the simulator and the pages (dashboard-roles.ts: the `busy` market on a real clock with
 * short cycles, the dashboard's client cap raised to fit the run; raw loopback sockets, reading or
 * paused), and this driver, which sends keep-alive `GET /v1/match/account` at a steady
 * 200 per second and times each from when it was due. `--sim` runs another tree's simulator (e.g.
 * /work/baseline) under the same driver. Target: p99 with N pages within 2x of none. Everything is
 * on 127.0.0.1, bounded in count and time, and every child is ended at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sleep } from './chaos/support.js';
import { flagsOf, type Stats } from './dashboard-roles.js';

export interface DashboardBenchOptions {
  /** Reading pages while REST is timed. Default 1,000. */
  clients?: number;
  /** Pages that never read, for the memory run. Default 200. */
  stalled?: number;
  /** Seconds REST is timed in each of the two phases. Default 10. */
  phaseS?: number;
  /** Seconds the stalled pages stay connected. Default 12. */
  stallS?: number;
  /** The simulator's auction cycle (a real clock). Default 2,000 ms. */
  cycleMs?: number;
  /** Module exporting createSimulator to run instead of this tree's. */
  simulatorModule?: string;
}

export interface DashboardBenchResult {
  tree: string;
  clients: number;
  /** Pages refused (a 503 past the cap) or never greeted. */
  clientsRefused: number;
  restP50NoneMs: number;
  restP99NoneMs: number;
  restP50WithMs: number;
  restP99WithMs: number;
  /** Requests with no 200 answer within 20 s while the pages read. */
  restTimeouts: number;
  /** The simulator process's CPU time per wall second (%), without and with the reading pages. */
  serverCpuNonePct: number;
  serverCpuWithPct: number;
  /** The longest event-loop delay of the simulator (ms), without and with the reading pages. */
  serverLoopMaxNoneMs: number;
  serverLoopMaxWithMs: number;
  p99Ratio: number;
  stalled: number;
  stallS: number;
  /** Bytes the simulator holds unwritten for its sockets at the end of the stalled run, and at its peak. */
  stallQueuedEndMb: number;
  stallQueuedPeakMb: number;
  /** The simulator's RSS growth over the stalled run (noisy: the kernel holds the first MiBs per socket). */
  stallRssGrowthMb: number;
}

const SELF = fileURLToPath(import.meta.url);
const ROLES = fileURLToPath(new URL('./dashboard-roles.ts', import.meta.url));
const KEY = 'TEST_API_KEY:burner:sim';
const REQUEST_TIMEOUT_MS = 20_000;
/** The unrelated REST load, steady whatever the server does. */
const REQUESTS_PER_S = 200;

/** A process of dashboard-roles.ts, talking JSON lines on stdout; ended with its stdin. */
function child(args: string[]): { proc: ChildProcess; next: <T>() => Promise<T> } {
  const proc = spawn(process.execPath, [...process.execArgv, ROLES, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  const next = async <T>() => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`${args.join(' ')} ended early`);
    return JSON.parse(value as string) as T;
  };
  return { proc, next };
}

function ask(proc: ChildProcess, line: string): void {
  proc.stdin?.write(`${line}\n`);
}

async function end(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((done) => proc.once('exit', done));
  proc.stdin?.end();
  await exited;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

/** One GET, resolved with whether it was answered 200 (false: failed or timed out). */
function get(agent: Agent, target: URL): Promise<boolean> {
  return new Promise<boolean>((done) => {
    const req = request(target, { agent, headers: { authorization: `Bearer ${KEY}` } }, (res) => {
      res.resume();
      res.once('end', () => done(res.statusCode === 200));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy());
    req.once('error', () => done(false));
    req.end();
  });
}

/**
 * GETs at a fixed rate for `seconds`, each timed from when it was due, not when it was sent: a
 * server that stalls for 500 ms delays the 50 requests due meanwhile, which a closed loop of one
 * request after another would count as one slow sample among thousands of fast ones.
 */
async function timeRest(url: string, seconds: number): Promise<{ ms: number[]; timeouts: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL('/v1/match/account', url);
  const ms: number[] = [];
  let timeouts = 0;
  const count = Math.round(seconds * REQUESTS_PER_S);
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / REQUESTS_PER_S;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(
      get(agent, target).then((ok) => {
        const took = performance.now() - due;
        // No answer (within 20 s, or at all): counted, and timed as the wait it was.
        if (!ok) timeouts++;
        ms.push(took);
      }),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { ms: ms.sort((a, b) => a - b), timeouts };
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

export async function benchDashboardClients(
  options: DashboardBenchOptions = {},
): Promise<DashboardBenchResult> {
  const clients = options.clients ?? 1000;
  const stalled = options.stalled ?? 200;
  const phaseS = options.phaseS ?? 10;
  const stallS = options.stallS ?? 12;
  const serverArgs = ['--role', 'server', '--cycle-ms', String(options.cycleMs ?? 2000)];
  serverArgs.push('--ui-clients', String(Math.max(clients, stalled)));
  if (options.simulatorModule) serverArgs.push('--sim', resolve(options.simulatorModule));
  const server = child(serverArgs);
  try {
    const { url } = await server.next<{ url: string }>();
    const stats = async () => {
      ask(server.proc, 'stats');
      return await server.next<Stats>();
    };
    /** REST timed for a phase, and the simulator's CPU share meanwhile. */
    const phase = async () => {
      const [before, started] = [await stats(), performance.now()];
      const rest = await timeRest(url, phaseS);
      const after = await stats();
      const cpuPct = round(((after.cpuMs - before.cpuMs) / (performance.now() - started)) * 100, 0);
      return { ...rest, cpuPct, loopMaxMs: round(after.loopMaxMs) };
    };
    await timeRest(url, Math.min(1, phaseS)); // warm-up: JIT and the first auctions
    const none = await phase();

    const readers = child(['--role', 'pages', '--url', url, '--n', String(clients)]);
    const { refused } = await readers.next<{ refused: number }>();
    const withPages = await phase();
    await end(readers.proc);

    const stall = child(['--role', 'pages', '--url', url, '--n', String(stalled), '--paused']);
    await stall.next();
    const memory: Stats[] = [];
    for (let s = 0; s <= stallS; s++) {
      memory.push(await stats());
      if (s < stallS) await sleep(1000);
    }
    await end(stall.proc);
    const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
    const p99None = percentile(none.ms, 99);
    const p99With = percentile(withPages.ms, 99);
    return {
      tree: options.simulatorModule ?? 'this tree',
      clients,
      clientsRefused: refused,
      restP50NoneMs: round(percentile(none.ms, 50)),
      restP99NoneMs: round(p99None),
      restP50WithMs: round(percentile(withPages.ms, 50)),
      restP99WithMs: round(p99With),
      restTimeouts: withPages.timeouts,
      serverCpuNonePct: none.cpuPct,
      serverCpuWithPct: withPages.cpuPct,
      serverLoopMaxNoneMs: none.loopMaxMs,
      serverLoopMaxWithMs: withPages.loopMaxMs,
      p99Ratio: round(p99With / p99None),
      stalled,
      stallS,
      stallQueuedEndMb: mb(memory.at(-1)?.queued ?? 0),
      stallQueuedPeakMb: mb(Math.max(...memory.map((m) => m.queued))),
      stallRssGrowthMb: mb((memory.at(-1)?.rss ?? 0) - (memory[0]?.rss ?? 0)),
    };
  } finally {
    await end(server.proc);
  }
}

if (process.argv[1] === SELF) {
  const flags = flagsOf(process.argv.slice(2));
  const smoke = flags.has('--smoke');
  const num = (name: string, full: number, small: number) =>
    flags.has(name) ? Number(flags.get(name)) : smoke ? small : full;
  const result = await benchDashboardClients({
    clients: num('--clients', 1000, 20),
    stalled: num('--stalled', 200, 20),
    phaseS: num('--phase-s', 10, 1),
    stallS: num('--stall-s', 12, 2),
    cycleMs: num('--cycle-ms', 2000, 1000),
    ...(flags.get('--sim') ? { simulatorModule: flags.get('--sim') as string } : {}),
  });
  if (flags.has('--json')) console.log(JSON.stringify(result));
  else console.table([result]);
  console.log(describeDashboardClients(result));
}

export function describeDashboardClients(r: DashboardBenchResult): string {
  return (
    `REST p99 ${r.restP99WithMs} ms with ${r.clients} reading dashboards, ${r.restP99NoneMs} ms with none: ` +
    `${r.p99Ratio}x (target <= 2x; simulator CPU ${r.serverCpuNonePct}% -> ${r.serverCpuWithPct}%, longest event-loop delay ` +
    `${r.serverLoopMaxNoneMs} -> ${r.serverLoopMaxWithMs} ms); ${r.stalled} stalled dashboards for ${r.stallS} s: ` +
    `${r.stallQueuedEndMb} MB queued at the end (peak ${r.stallQueuedPeakMb}), RSS ${r.stallRssGrowthMb} MB more`
  );
}
