/**
 * What the fuzz driver's added families (restore, ui, scenarios) share: the simulator module they
 * run against, their report's counts, and one request at a time over a raw loopback connection.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RawConnection, type RawOutcome, type RawResponse, rawRequest } from './raw-http.js';

/** What the driver takes from a simulator entry module (this tree's, or another via `--sim`). */
export interface SimulatorModule {
  createSimulator: typeof import('../src/simulator/simulator.js').createSimulator;
  SEEDED: typeof import('../src/simulator/engine/seed.js').SEEDED;
  loadScenario: typeof import('../src/simulator/scenario/load.js').loadScenario;
  ScenarioError: typeof import('../src/simulator/scenario/check.js').ScenarioError;
}

/** This tree's simulator, or the entry module at `modulePath`; loaded lazily either way. */
export async function loadSimulator(modulePath?: string): Promise<SimulatorModule> {
  const href = modulePath
    ? pathToFileURL(resolve(modulePath)).href
    : new URL('../src/simulator/index.js', import.meta.url).href;
  return import(href) as Promise<SimulatorModule>;
}

export type Family = 'restore' | 'ui' | 'scenarios';

/** One family's counts. A field a family cannot observe stays 0. */
export interface FamilyReport {
  /** Cases run (requests sent; scenario documents tried). */
  sent: number;
  /** Answered 2xx/3xx, or a scenario loaded and its simulator built. */
  accepted: number;
  /** Answered 4xx other than 413, or refused with the documented ScenarioError. */
  refused: number;
  /** Answered 413: the body was over the server's limit (restore: counted apart, not a finding). */
  tooLarge: number;
  byStatus: Record<string, number>;
  // Findings: each must be 0.
  serverErrors: number;
  /** A 400 whose body is not `{code: 2, message}` naming where (`errors[].location` or `field`). */
  badRefusals: number;
  /** GET /_sim/state (or the snapshot) not byte-identical to before a refused request. */
  stateChangedAfterRefusal: number;
  /** After an accepted restore or scenario: a 5xx/no answer on a follow-up request, a throw on a clear. */
  laterFailures: number;
  /** The unmodified snapshot was not accepted (restore only). */
  originalRefused: number;
  /** Error answers (not to HEAD) without a JSON `{code: number, message: string}` body. */
  nonJsonErrors: number;
  loggedErrors: number;
  /** Uncaught exceptions, unhandled rejections, a server dead at the end. */
  crashes: number;
  /** Something thrown that is not the documented error type (scenarios: not a ScenarioError). */
  unexpectedErrors: number;
  /** No answer in time on an open connection (or a load that never settled). */
  stalled: number;
  closedUnanswered: number;
  /** A case over the slow bound (scenarios), measured, never interrupted. */
  slow: number;
  /** Not a finding: accepted restores after which the engine's invariants fail (what it accepted). */
  acceptedBreakingInvariants: number;
  truncated: boolean;
  elapsedMs: number;
  /** A few offending cases per finding: `index label -> outcome`. */
  examples: Record<string, string[]>;
}

export const FINDING_KEYS = [
  'serverErrors',
  'badRefusals',
  'stateChangedAfterRefusal',
  'laterFailures',
  'originalRefused',
  'nonJsonErrors',
  'loggedErrors',
  'crashes',
  'unexpectedErrors',
  'stalled',
  'closedUnanswered',
  'slow',
] as const satisfies readonly (keyof FamilyReport)[];

export function newFamilyReport(): FamilyReport {
  return {
    sent: 0,
    accepted: 0,
    refused: 0,
    tooLarge: 0,
    byStatus: {},
    ...(Object.fromEntries(FINDING_KEYS.map((k) => [k, 0])) as Record<(typeof FINDING_KEYS)[number], 0>),
    acceptedBreakingInvariants: 0,
    truncated: false,
    elapsedMs: 0,
    examples: {},
  };
}

export const familyFindings = (r: FamilyReport): number => FINDING_KEYS.reduce((n, k) => n + r[k], 0);

/** Counts a finding (or an informational kind) and keeps its first five examples. */
export function note(r: FamilyReport, kind: keyof FamilyReport, text: string): void {
  if (typeof r[kind] === 'number') (r[kind] as number)++;
  const list = r.examples[kind] ?? [];
  r.examples[kind] = list;
  if (list.length < 5) list.push(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}

/** Uncaught exceptions and unhandled rejections while `run` runs, counted as the family's crashes. */
export async function watchingCrashes<T>(r: FamilyReport, run: () => Promise<T>): Promise<T> {
  const onCrash = (err: unknown) => note(r, 'crashes', String(err));
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  try {
    return await run();
  } finally {
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  }
}

export function jsonBody(r: RawResponse): Record<string, unknown> | undefined {
  if (!/^application\/json\b/i.test(r.headers['content-type'] ?? '')) return undefined;
  try {
    const body: unknown = JSON.parse(r.body.toString('utf8'));
    return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function isJsonError(r: RawResponse): boolean {
  const body = jsonBody(r);
  return typeof body?.code === 'number' && typeof body.message === 'string';
}

/** One request at a time on a kept-alive connection, reopened when the server closed it. */
export class Asker {
  private conn: RawConnection | undefined;
  constructor(
    private readonly port: number,
    private readonly timeoutMs: number,
  ) {}

  async ask(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<RawOutcome> {
    if (!this.conn || this.conn.isClosed) this.conn = await RawConnection.open(this.port);
    const conn = this.conn;
    conn.write(rawRequest(method, path, headers, body));
    const got = await conn.next(this.timeoutMs, method === 'HEAD');
    // After no answer (or one that closes), the next request must not queue behind it.
    if (typeof got !== 'object' || /close/i.test(got.headers.connection ?? '')) this.close();
    return got;
  }

  close(): void {
    this.conn?.destroy();
    this.conn = undefined;
  }
}

export const JSON_HEADERS = { 'content-type': 'application/json' };
