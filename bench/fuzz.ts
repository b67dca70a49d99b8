/**
 * Fuzz driver of the simulator's HTTP server: N generated requests (endpoint-table routes with
 * mutated bodies, deep nesting, huge strings, junk paths, odd headers, broken framing, mid-body
 * hang-ups, oversized bodies) over raw loopback sockets to a simulator started in this process.
 * Counts what must never happen: 5xx answers, error answers without a JSON `{code, message}`
 * body, large error bodies, errors logged by the simulator, crashes, connections left unanswered.
 *
 *   npx tsx bench/fuzz.ts [--requests 100000] [--seed 1] [--concurrency 8] [--timeout-ms 5000]
 *                         [--max-ms 900000] [--sim /path/to/src/simulator/index.ts]
 *
 * `--sim` fuzzes another tree's simulator (e.g. an older checkout) with this driver. Bounded in
 * count and in time; deterministic per seed (case i is always the same bytes; see fuzz-cases.ts).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type FuzzCase, makeCase } from './fuzz-cases.js';
import { RawConnection, type RawResponse, rawRequest } from './raw-http.js';

export interface FuzzOptions {
  /** Requests to send. Default 10,000. */
  requests?: number;
  seed?: number;
  /** Connections in flight at once. Default 8. */
  concurrency?: number;
  /** An answer later than this counts as a stalled connection. Default 5,000 ms. */
  timeoutMs?: number;
  /** The run stops sending after this long (reported as `truncated`). Default 15 minutes. */
  maxMs?: number;
  /** Module exporting `createSimulator` and `SEEDED` to fuzz. Default: this tree's simulator. */
  simulatorModule?: string;
}

export interface FuzzReport {
  sent: number;
  answered: number;
  /** Mid-body hang-ups sent (no answer expected; nothing may be logged for them). */
  hangups: number;
  byStatus: Record<string, number>;
  serverErrors: number;
  /** Answers >= 400 (not to HEAD) whose body is not JSON `{code: number, message: string}`. */
  nonJsonErrors: number;
  maxErrorBodyBytes: number;
  /** Error bodies over 4 KiB. */
  largeErrorBodies: number;
  /** simulator logger.error calls (an unexpected 500 is logged). */
  loggedErrors: number;
  /** Uncaught exceptions and unhandled rejections in the process, and a server dead at the end. */
  crashes: number;
  /** No answer within timeoutMs on an open connection. */
  stalled: number;
  /** The server closed the connection without answering a request that should be answered. */
  closedUnanswered: number;
  truncated: boolean;
  elapsedMs: number;
  /** A few offending cases per finding: `index kind label -> outcome`. */
  examples: Record<string, string[]>;
}

const ERROR_BODY_BOUND = 4096;

function isJsonError(r: RawResponse): boolean {
  if (!/^application\/json\b/i.test(r.headers['content-type'] ?? '')) return false;
  try {
    const body = JSON.parse(r.body.toString('utf8')) as { code?: unknown; message?: unknown };
    return typeof body.code === 'number' && typeof body.message === 'string';
  } catch {
    return false;
  }
}

interface SimulatorModule {
  createSimulator: typeof import('../src/simulator/simulator.js').createSimulator;
  SEEDED: typeof import('../src/simulator/engine/seed.js').SEEDED;
}

/**
 * This tree's simulator, or the entry module (exporting both names) at `modulePath`. Loaded
 * lazily, so that fuzzing another tree does not load this one's simulator at all.
 */
async function loadSimulator(modulePath?: string): Promise<SimulatorModule> {
  if (modulePath) return import(pathToFileURL(resolve(modulePath)).href) as Promise<SimulatorModule>;
  const [{ createSimulator }, { SEEDED }] = await Promise.all([
    import('../src/simulator/simulator.js'),
    import('../src/simulator/engine/seed.js'),
  ]);
  return { createSimulator, SEEDED };
}

export async function runFuzz(options: FuzzOptions = {}): Promise<FuzzReport> {
  const requests = options.requests ?? 10_000;
  const seed = options.seed ?? 1;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const started = Date.now();
  const deadline = started + (options.maxMs ?? 900_000);
  const mod = await loadSimulator(options.simulatorModule);
  const logged: string[] = [];
  const sim = mod.createSimulator({
    logger: { info: () => undefined, error: (message) => logged.push(message) },
    // Webhook endpoints are never contacted: every HEAD check and delivery succeeds at once.
    fetch: async () => new Response(null, { status: 200 }),
  });
  const running = await sim.listen({ host: '127.0.0.1', port: 0 });
  const port = Number(new URL(running.url).port);
  const { burner, minter, ineligible, noaccount } = mod.SEEDED;
  const ids = {
    apiKeys: [burner.apiKey, minter.apiKey, ineligible.apiKey, noaccount.apiKey],
    walletId: burner.walletId,
    fiatAccountId: burner.fiatAccountId,
  };
  const report: FuzzReport = {
    sent: 0,
    answered: 0,
    hangups: 0,
    byStatus: {},
    serverErrors: 0,
    nonJsonErrors: 0,
    maxErrorBodyBytes: 0,
    largeErrorBodies: 0,
    loggedErrors: 0,
    crashes: 0,
    stalled: 0,
    closedUnanswered: 0,
    truncated: false,
    elapsedMs: 0,
    examples: {},
  };
  const example = (finding: string, text: string) => {
    const list = report.examples[finding] ?? [];
    report.examples[finding] = list;
    if (list.length < 5) list.push(text);
  };
  const note = (finding: string, c: FuzzCase, outcome: string) =>
    example(finding, `${c.index} ${c.kind} ${JSON.stringify(c.label)} -> ${outcome}`);
  const onCrash = (err: unknown) => {
    report.crashes++;
    example('crashes', String(err));
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);

  const record = (c: FuzzCase, r: RawResponse) => {
    report.answered++;
    report.byStatus[r.status] = (report.byStatus[r.status] ?? 0) + 1;
    if (r.status >= 500) {
      report.serverErrors++;
      note('serverErrors', c, String(r.status));
    }
    if (r.status < 400 || c.head) return;
    report.maxErrorBodyBytes = Math.max(report.maxErrorBodyBytes, r.body.length);
    if (r.body.length > ERROR_BODY_BOUND) {
      report.largeErrorBodies++;
      note('largeErrorBodies', c, `${r.status}, ${r.body.length} bytes`);
    }
    if (!isJsonError(r)) {
      report.nonJsonErrors++;
      note('nonJsonErrors', c, `${r.status} ${JSON.stringify(r.body.subarray(0, 60).toString('latin1'))}`);
    }
  };

  let next = 0;
  const worker = async () => {
    let kept: RawConnection | undefined;
    while (next < requests) {
      if (Date.now() > deadline) {
        report.truncated = true;
        break;
      }
      const c = makeCase(seed, next++, ids);
      let conn: RawConnection;
      try {
        if (!c.fresh && (!kept || kept.isClosed)) kept = await RawConnection.open(port);
        conn = c.fresh || !kept ? await RawConnection.open(port) : kept;
      } catch (err) {
        onCrash(`cannot connect: ${String(err)}`);
        break;
      }
      conn.write(c.bytes);
      report.sent++;
      if (c.hangup) {
        report.hangups++;
        await new Promise((done) => setTimeout(done, 2));
        conn.destroy();
        continue;
      }
      const got = await conn.next(timeoutMs, c.head);
      if (got === 'timeout') {
        report.stalled++;
        note('stalled', c, 'no answer');
      } else if (got === 'closed') {
        report.closedUnanswered++;
        note('closedUnanswered', c, 'closed');
      } else record(c, got);
      const reusable = typeof got === 'object' && !/close/i.test(got.headers.connection ?? '');
      if (c.fresh || !reusable) {
        conn.destroy();
        if (conn === kept) kept = undefined;
      }
    }
    kept?.destroy();
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));

  // The server must still be alive and answering after all of it.
  const probe = await RawConnection.open(port).catch(() => undefined);
  probe?.write(rawRequest('GET', '/_sim/state'));
  const alive = probe ? await probe.next(timeoutMs) : 'closed';
  probe?.destroy();
  if (typeof alive !== 'object' || alive.status !== 200)
    onCrash(`server not answering at the end: ${String(alive)}`);
  report.elapsedMs = Date.now() - started;
  report.loggedErrors = logged.length;
  if (logged.length) report.examples.loggedErrors = logged.slice(0, 5);
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
  await running.close();
  await sim.close();
  return report;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const num = (name: string) => (arg(name) === undefined ? undefined : Number(arg(name)));
  const report = await runFuzz({
    requests: num('requests'),
    seed: num('seed'),
    concurrency: num('concurrency'),
    timeoutMs: num('timeout-ms'),
    maxMs: num('max-ms'),
    simulatorModule: arg('sim'),
  });
  console.log(JSON.stringify(report, null, 2));
  const findings =
    report.serverErrors +
    report.nonJsonErrors +
    report.largeErrorBodies +
    report.loggedErrors +
    report.crashes +
    report.stalled +
    report.closedUnanswered;
  process.exitCode = findings === 0 ? 0 : 1;
}
