/**
 * The child processes of bench/dashboard-clients.ts, one role each (`--role server|pages`), talking
 * JSON lines on stdout and ending when their stdin closes.
 */
import { connect, type Socket } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

/** What the simulator's process reports on a `stats` line. */
export interface Stats {
  rss: number;
  /** Bytes queued unwritten on its sockets (what a page that does not read costs). */
  queued: number;
  cpuMs: number;
  /** The longest the simulator's event loop was held up since the previous `stats` line, ms. */
  loopMaxMs: number;
}

/**
 * `--role server`: the simulator, its URL on stdout, and its {@link Stats} on each `stats` line;
 * ends with stdin.
 */
async function serve(flags: Map<string, string>): Promise<void> {
  const module = flags.get('--sim');
  const { createSimulator } = (await import(
    module ? pathToFileURL(module).href : '../src/simulator/index.js'
  )) as typeof import('../src/simulator/index.js');
  const cycleMs = Number(flags.get('--cycle-ms'));
  const sim = createSimulator({
    market: 'busy',
    clock: 'real',
    cycleMs,
    lockMs: Math.floor(cycleMs / 4),
    settleMs: Math.floor(cycleMs / 10),
    logger: { info: () => undefined, error: (m: string) => process.stderr.write(`simulator: ${m}\n`) },
  });
  // An older tree ignores uiClients: it has no cap to raise.
  const running = await sim.listen({ port: 0, ui: true, uiClients: Number(flags.get('--ui-clients')) });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const sockets = new Set<Socket>();
  running.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line !== 'stats') continue;
    let queued = 0;
    for (const socket of sockets) queued += socket.writableLength;
    const { user, system } = process.cpuUsage();
    const loopMaxMs = loop.max / 1e6;
    loop.reset();
    const stats: Stats = { rss: process.memoryUsage().rss, queued, cpuMs: (user + system) / 1000, loopMaxMs };
    process.stdout.write(`${JSON.stringify(stats)}\n`);
  }
  await sim.close();
}

/**
 * `--role pages`: N raw stream clients. Reading ones count as ready at their `hello` (or a refusal);
 * `--paused` ones once connected, and never read again. All end with stdin.
 */
async function pages(flags: Map<string, string>): Promise<void> {
  const { hostname, port } = new URL(flags.get('--url') as string);
  const n = Number(flags.get('--n'));
  const paused = flags.has('--paused');
  const sockets: Socket[] = [];
  let refused = 0;
  const opened = Array.from(
    { length: n },
    () =>
      new Promise<void>((ready) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(`GET /_sim/ui/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
          if (paused) {
            socket.pause();
            ready();
          }
        });
        sockets.push(socket);
        socket.on('error', () => ready());
        if (paused) return;
        let head = '';
        let greeted = false;
        socket.on('data', (chunk: Buffer) => {
          if (greeted) return;
          head += chunk.toString('latin1');
          const refusal = /^HTTP\/1\.1 (?!200)/.test(head);
          if (!refusal && !head.includes('event: hello')) return;
          if (refusal) refused++;
          greeted = true;
          head = '';
          ready();
        });
      }),
  );
  await Promise.all(opened);
  process.stdout.write(`${JSON.stringify({ ready: true, refused })}\n`);
  for await (const _ of createInterface({ input: process.stdin })) {
    // Nothing to answer: the driver only ends this role.
  }
  for (const s of sockets) s.destroy();
}

/** `--name value` pairs (a flag followed by another flag or nothing has the value ''). */
export function flagsOf(argv: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i] as string;
    if (!name.startsWith('--')) continue;
    const value = argv[i + 1];
    flags.set(name, value === undefined || value.startsWith('--') ? '' : value);
  }
  return flags;
}

const flags = flagsOf(process.argv.slice(2));
if (flags.get('--role') === 'server') await serve(flags);
else if (flags.get('--role') === 'pages') await pages(flags);
