/**
 * Fuzz driver of the simulator. Four families, each against a simulator of its own:
 * - http: generated requests (endpoint-table routes with mutated bodies, deep nesting, huge
 *   strings, junk paths, odd headers, broken framing, mid-body hang-ups, oversized bodies) over
 *   raw loopback sockets;
 * - restore: POST /_sim/restore with mutations of a real busy-market snapshot (fuzz-restore.ts);
 * - ui: /_sim/ui/* and odd top-level paths (fuzz-ui-paths.ts);
 * - scenarios: mutated example scenarios through loadScenario and createSimulator (fuzz-scenarios.ts).
 * Counts what must never happen: 5xx answers, error answers without a JSON `{code, message}`
 * body, large error bodies, errors logged by the simulator, crashes, connections left unanswered,
 * state changed by a refused restore, failures after an accepted one, errors of the wrong type.
 *
 *   npx tsx bench/fuzz.ts [--requests 100000] [--seed 1] [--concurrency 8] [--timeout-ms 5000]
 *                         [--max-ms 1800000] [--sim /path/to/src/simulator/index.ts]
 *                         [--restore N] [--ui N] [--scenarios N] [--families http,restore,ui,scenarios]
 *                         [--restore-clears 12] [--slow-ms 2000]
 *
 * `--requests` is the cases overall: restore, ui and scenarios take 0.2%, 5% and 1% of it unless
 * given, http the rest. `--sim` fuzzes another tree's simulator (e.g. an older checkout) with this
 * driver. Bounded in count and in time; deterministic per seed (case i is always the same bytes).
 * The exit status is 1 on any finding.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type FuzzCase, makeCase } from './fuzz-cases.js';
import {
  type Family,
  type FamilyReport,
  familyFindings,
  isJsonError,
  loadSimulator,
  type SimulatorModule,
} from './fuzz-family.js';
import { runRestoreFamily } from './fuzz-restore.js';
import { runScenarioFamily } from './fuzz-scenarios.js';
import { runUiFamily } from './fuzz-ui-paths.js';
import { RawConnection, type RawResponse, rawRequest } from './raw-http.js';

export const FAMILIES = ['http', 'restore', 'ui', 'scenarios'] as const;

/** The added families' default shares of `requests`; the HTTP family takes the rest. */
const SHARES: Record<Family, number> = { restore: 0.002, ui: 0.05, scenarios: 0.01 };

export interface FuzzOptions {
  /** Cases overall. Default 10,000: the added families their share, the HTTP family the rest. */
  requests?: number;
  /** Restore cases (POST /_sim/restore, a mutated busy-market snapshot). Default 0.2% of requests. */
  restore?: number;
  /** Dashboard and odd-path requests. Default 5% of requests. */
  ui?: number;
  /** Scenario documents (in process, no HTTP). Default 1% of requests. */
  scenarios?: number;
  /** The families to run. Default all: http (the generated requests), restore, ui, scenarios. */
  families?: readonly (typeof FAMILIES)[number][];
  /** Auctions cleared before the restore family's snapshot. Default 12. */
  restoreClears?: number;
  /** A scenario case slower than this is a finding. Default 2,000 ms. */
  slowMs?: number;
  seed?: number;
  /** Connections in flight at once. Default 8. */
  concurrency?: number;
  /** An answer later than this counts as a stalled connection. Default 5,000 ms. */
  timeoutMs?: number;
  /** The run stops sending after this long (reported as `truncated`). Default 30 minutes (all families). */
  maxMs?: number;
  /** Entry module (createSimulator, SEEDED, loadScenario, ...) to fuzz. Default: this tree's simulator. */
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
  /**
   * Requests written on a kept connection the server was closing for idleness (it had been idle
   * for at least the server's keep-alive timeout, less a margin, when the request went out): the
   * race RFC 9112 9.3.1 lets every client meet and retry. Not a finding; each was sent again on a
   * fresh connection, and that answer is what the other counts record. A process starved of CPU
   * (a loaded machine) leaves kept connections idle past the timeout between two requests.
   */
  keepAliveRaces: number;
  truncated: boolean;
  elapsedMs: number;
  /** A few offending cases per finding: `index kind label -> outcome`. */
  examples: Record<string, string[]>;
}

/** The whole run: the top-level counts are the HTTP family's (as before the added families). */
export interface FuzzRunReport extends FuzzReport {
  families: Partial<Record<Family, FamilyReport>>;
  /** Findings per family and in all; the exit status is non-zero unless `total` is 0. */
  findings: Record<(typeof FAMILIES)[number] | 'total', number>;
}

/**
 * The simulator closes a kept connection after 5 s idle (`keepAliveTimeout`, serve/listen.ts); a
 * request written after 4 s idle may meet that close on its way (timers fire late, and the close
 * is already under way when the request arrives).
 */
const KEEP_ALIVE_RACE_MS = 4_000;

const httpFindings = (r: FuzzReport): number =>
  r.serverErrors +
  r.nonJsonErrors +
  r.largeErrorBodies +
  r.loggedErrors +
  r.crashes +
  r.stalled +
  r.closedUnanswered;

export async function runFuzz(options: FuzzOptions = {}): Promise<FuzzRunReport> {
  const requests = options.requests ?? 10_000;
  const seed = options.seed ?? 1;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const concurrency = options.concurrency ?? 8;
  const deadline = Date.now() + (options.maxMs ?? 1_800_000);
  const on = new Set(options.families ?? FAMILIES);
  for (const f of on)
    if (!FAMILIES.includes(f)) throw new RangeError(`unknown family ${f}: one of ${FAMILIES.join(', ')}`);
  const count = (f: Family) => (on.has(f) ? (options[f] ?? Math.round(requests * SHARES[f])) : 0);
  const counts = { restore: count('restore'), ui: count('ui'), scenarios: count('scenarios') };
  const httpCount = on.has('http')
    ? Math.max(0, requests - counts.restore - counts.ui - counts.scenarios)
    : 0;
  const mod = await loadSimulator(options.simulatorModule);
  // One family at a time, each on a simulator of its own: crashes and logged errors are its own.
  const report: FuzzRunReport = {
    ...(await runHttpFamily(
      mod,
      { ...options, requests: httpCount, seed, timeoutMs, concurrency },
      deadline,
    )),
    families: {},
    findings: { http: 0, restore: 0, ui: 0, scenarios: 0, total: 0 },
  };
  const common = { seed, timeoutMs, deadline };
  if (counts.ui) report.families.ui = await runUiFamily(mod, { ...common, cases: counts.ui, concurrency });
  if (counts.restore)
    report.families.restore = await runRestoreFamily({
      ...common,
      cases: counts.restore,
      clears: options.restoreClears,
      modulePath: options.simulatorModule && resolve(options.simulatorModule),
    });
  if (counts.scenarios)
    report.families.scenarios = await runScenarioFamily(mod, {
      ...common,
      cases: counts.scenarios,
      slowMs: options.slowMs,
    });
  report.findings.http = httpFindings(report);
  for (const [f, r] of Object.entries(report.families)) report.findings[f as Family] = familyFindings(r);
  report.findings.total = Object.values(report.findings).reduce((a, b) => a + b, 0);
  return report;
}

const ERROR_BODY_BOUND = 4096;

/** The generated requests (fuzz-cases.ts) against a simulator of their own, `concurrency` at a time. */
async function runHttpFamily(
  mod: SimulatorModule,
  options: FuzzOptions & { requests: number; seed: number; timeoutMs: number; concurrency: number },
  deadline: number,
): Promise<FuzzReport> {
  const { requests, seed, timeoutMs } = options;
  const started = Date.now();
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
    keepAliveRaces: 0,
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
    // When the kept connection last carried an answer: idle from then until the next write.
    let keptAnsweredAt = 0;
    while (next < requests) {
      if (Date.now() > deadline) {
        report.truncated = true;
        break;
      }
      const c = makeCase(seed, next++, ids);
      let conn: RawConnection;
      try {
        if (!c.fresh && (!kept || kept.isClosed)) {
          kept = await RawConnection.open(port);
          keptAnsweredAt = 0;
        }
        conn = c.fresh || !kept ? await RawConnection.open(port) : kept;
      } catch (err) {
        onCrash(`cannot connect: ${String(err)}`);
        break;
      }
      const idleMs = conn === kept && keptAnsweredAt > 0 ? Date.now() - keptAnsweredAt : 0;
      conn.write(c.bytes);
      report.sent++;
      if (c.hangup) {
        report.hangups++;
        await new Promise((done) => setTimeout(done, 2));
        conn.destroy();
        continue;
      }
      let got = await conn.next(timeoutMs, c.head);
      if (got === 'closed' && idleMs >= KEEP_ALIVE_RACE_MS) {
        report.keepAliveRaces++;
        note('keepAliveRaces', c, `closed after ${idleMs} ms idle; sent again on a fresh connection`);
        conn.destroy();
        if (conn === kept) kept = undefined;
        conn = await RawConnection.open(port);
        conn.write(c.bytes);
        got = await conn.next(timeoutMs, c.head);
      }
      if (typeof got === 'object' && conn === kept) keptAnsweredAt = Date.now();
      if (got === 'timeout') {
        report.stalled++;
        note('stalled', c, 'no answer');
      } else if (got === 'closed') {
        report.closedUnanswered++;
        note('closedUnanswered', c, `closed (${conn === kept ? `kept, idle ${idleMs} ms` : 'fresh'})`);
      } else record(c, got);
      const reusable = typeof got === 'object' && !/close/i.test(got.headers.connection ?? '');
      if (c.fresh || !reusable) {
        conn.destroy();
        if (conn === kept) kept = undefined;
      }
    }
    kept?.destroy();
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));

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
    restore: num('restore'),
    ui: num('ui'),
    scenarios: num('scenarios'),
    restoreClears: num('restore-clears'),
    slowMs: num('slow-ms'),
    families: arg('families')?.split(',') as FuzzOptions['families'],
  });
  console.log(JSON.stringify(report, null, 2));
  process.exitCode = report.findings.total === 0 ? 0 : 1;
}
