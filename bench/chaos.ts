/**
 * Chaos driver (issue 9): `npx tsx bench/chaos.ts [--placements N] [--seconds S] [--seed X] [--wait-seconds W] [--src DIR] [--json]`
 *
 * Everything runs in this process on 127.0.0.1: a simulator, the fault proxy of bench/chaos/ in
 * front of it, SDK clients behind it. Bounded: N placements (default 5,200) and S seconds of socket
 * kills (default 20), then it stops by itself, closing every server, socket and timer.
 *
 * - placements: orders.place (burner BURN, minter MINT) and withdrawals.create (minter), each
 *   following the README's recovery recipe (OutcomeUnknownError -> resolveUnknown -> nothing found
 *   -> the same key sent again), while the
 *   proxy drops answers after processing (20%), resets connections before forwarding (5%), answers
 *   503 (5%), holds requests past the client's timeout before forwarding them (5%) and holds
 *   answers past it (5%). Auctions of 400 ms cap each entity at 10 orders and placements start at
 *   100/s, so the cap is full about half of each auction: 137008 refusals are common, and a late
 *   attempt can land in an auction with room after its retry was refused. Verdicts are checked against the
 *   simulator's state: false refusals, false accepts, duplicates, unknowns and how resolveUnknown
 *   settled them.
 * - stream: the burner's account stream under socket kills every 0.1–0.5 s while orders are placed,
 *   modified (several times in one millisecond), cancelled and cleared: order states expected vs
 *   delivered, duplicates, missing, out of order, reconnects, resyncs. At quiet points (every
 *   second, changes paused) two account mirrors (burner, minter) on their own sockets through the
 *   same proxy must equal the venue field by field, and their changes() come once and in order.
 * - wait: orders filled, partly filled with a roll child, cancelled or left unfilled while a proxy
 *   drops half of the account event frames and kills the sockets; `orders.waitForOutcome` for each
 *   must answer the venue's final order (W seconds of rounds, default 10).
 *
 * `--src DIR` (or MATCH_VENUE_SRC) takes the SDK and simulator from another `src/` tree, e.g. an
 * untouched checkout for "before" figures: `npx tsx bench/chaos.ts --src /work/baseline/src`.
 * A tree without the mirror or waitForOutcome (before issue 17) skips those parts ("not possible").
 * Exit status 1 when a false refusal, false accept, duplicate, missing or out-of-order event, a
 * mirror mismatch or a wrong / timed-out wait was seen.
 */
import { pathToFileURL } from 'node:url';
import { formatMirror, formatWait } from './chaos/format-state.js';
import {
  type PlacementChaosOptions,
  type PlacementChaosReport,
  runPlacementChaos,
} from './chaos/placements.js';
import { runStreamChaos, type StreamChaosOptions, type StreamChaosReport } from './chaos/stream.js';
import { DEFAULT_SRC_ROOT } from './chaos/support.js';
import { runWaitChaos, type WaitChaosOptions, type WaitChaosReport } from './chaos/wait.js';

export type { FaultRates } from './chaos/fault-kinds.js';
export { startFaultProxy } from './chaos/fault-proxy.js';
export type { FaultProxy, FaultProxyOptions } from './chaos/fault-proxy-api.js';
export {
  type PlacementChaosOptions,
  type PlacementChaosReport,
  runPlacementChaos,
} from './chaos/placements.js';
export { runStreamChaos, type StreamChaosOptions, type StreamChaosReport } from './chaos/stream.js';
export { runWaitChaos, type WaitChaosOptions, type WaitChaosReport } from './chaos/wait.js';

export interface ChaosOptions {
  placements?: number;
  seconds?: number;
  seed?: number;
  srcRoot?: string;
  placement?: Omit<PlacementChaosOptions, 'placements' | 'seed' | 'srcRoot'>;
  stream?: Omit<StreamChaosOptions, 'seconds' | 'seed' | 'srcRoot'>;
  /** Seconds of waitForOutcome rounds (default 10); the other wait options below. */
  waitSeconds?: number;
  wait?: Omit<WaitChaosOptions, 'seconds' | 'seed' | 'srcRoot'>;
}

export interface ChaosReport {
  placements: PlacementChaosReport;
  stream: StreamChaosReport;
  wait: WaitChaosReport;
  /** Every count that must be zero, with its value. */
  failures: Record<string, number>;
}

/** The placement run, then the stream run; `failures` lists the non-zero counts that must be zero. */
export async function runChaos(options: ChaosOptions = {}): Promise<ChaosReport> {
  const common = { seed: options.seed ?? 1, srcRoot: options.srcRoot };
  const placements = await runPlacementChaos({
    ...options.placement,
    ...common,
    placements: options.placements ?? 5_200,
  });
  const stream = await runStreamChaos({ ...options.stream, ...common, seconds: options.seconds ?? 20 });
  const wait = await runWaitChaos({ ...options.wait, ...common, seconds: options.waitSeconds ?? 10 });
  const must: Record<string, number> = {
    'orders.place false refusals': placements.place.falseRefusals,
    'orders.place false accepts': placements.place.falseAccepts,
    'orders.place duplicates': placements.place.duplicates,
    'orders.place unresolved': placements.place.unknownSettledWrongly,
    'orders.place final absences that landed': placements.place.finalAbsenceButExists,
    'withdrawals.create false refusals': placements.withdraw.falseRefusals,
    'withdrawals.create false accepts': placements.withdraw.falseAccepts,
    'withdrawals.create duplicates': placements.withdraw.duplicates,
    'withdrawals.create unresolved': placements.withdraw.unknownSettledWrongly,
    'withdrawals.create final absences that landed': placements.withdraw.finalAbsenceButExists,
    'stream duplicates': stream.duplicates,
    'stream missing': stream.missing,
    'stream out of order': stream.outOfOrder,
    'stream not caught up': stream.caughtUp ? 0 : 1,
    ...mirrorFailures(stream.mirror),
    'waitForOutcome wrong final states': wait.wrong,
    'waitForOutcome timeouts': wait.timeouts,
    'waitForOutcome other errors': wait.errors,
  };
  const failures = Object.fromEntries(Object.entries(must).filter(([, n]) => n !== 0));
  return { placements, stream, wait, failures };
}

/** The mirror counts that must be zero (none when the source tree has no mirror). */
function mirrorFailures(m: StreamChaosReport['mirror']): Record<string, number> {
  if (!m.available) return {};
  const out: Record<string, number> = { 'mirror mismatches at quiet points': m.mismatches };
  for (const side of ['burner', 'minter'] as const) {
    const c = m[side];
    out[`mirror (${side}) change seq gaps`] = c.seqGaps;
    out[`mirror (${side}) duplicate changes`] = c.duplicates;
    out[`mirror (${side}) no-op changes`] = c.noops;
    out[`mirror (${side}) changes back in time`] = c.wentBack + c.outOfOrder;
  }
  return out;
}

const codes = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([code, n]) => `${code} x${n}`)
    .join(', ') || '-';

/** The report as printable tables. */
export function formatChaos(report: ChaosReport): string {
  const { placements: p, stream: s } = report;
  const lines: string[] = [];
  lines.push(
    `source: ${p.srcRoot}  seed: ${p.seed}  placements ${p.ms} ms (${p.auctions} auctions), stream ${s.ms} ms`,
  );
  const row = (label: string, a: string | number, b: string | number) =>
    `${label.padEnd(36)}${String(a).padStart(14)}${String(b).padStart(20)}`;
  lines.push('', row('', 'orders.place', 'withdrawals.create'));
  const { place, withdraw } = p;
  const rows: [string, (r: typeof place) => string | number][] = [
    ['calls', (r) => r.calls],
    ['accepted', (r) => r.accepted],
    ['refused (definite 4xx)', (r) => r.refused],
    ['OutcomeUnknownError', (r) => r.unknown],
    ['other errors', (r) => r.other],
    ['exist at the end', (r) => r.existing],
    ['FALSE REFUSALS (refused, yet exists)', (r) => r.falseRefusals],
    ['FALSE ACCEPTS (accepted, none)', (r) => r.falseAccepts],
    ['DUPLICATES (extra records)', (r) => r.duplicates],
    ['README recipe followed (looked up)', (r) => r.recipeFollowed],
    ['  of which sent again with the same key', (r) => r.recipeResent],
    ['  lookups "absent for good", yet exists', (r) => r.finalAbsenceButExists],
    ['unknowns resolveUnknown settled right', (r) => r.unknownSettledCorrectly],
    ['unknowns resolveUnknown settled wrong', (r) => r.unknownSettledWrongly],
    ['  (said none, then a late attempt landed)', (r) => r.unknownSaidNoneThenLanded],
  ];
  for (const [label, get] of rows) lines.push(row(label, get(place), get(withdraw)));
  lines.push(`refusals: place ${codes(place.refusedByCode)}; withdraw ${codes(withdraw.refusedByCode)}`);
  lines.push(
    `false refusals: place ${codes(place.falseRefusalsByCode)}; withdraw ${codes(withdraw.falseRefusalsByCode)}`,
  );
  lines.push(
    `unknown causes: place ${codes(place.unknownCauses)}; withdraw ${codes(withdraw.unknownCauses)}`,
  );
  const f = p.proxy.faults;
  lines.push(
    `proxy: ${p.proxy.requests} requests; none ${f.none}, dropAnswer ${f.dropAnswer}, resetBeforeForward ${f.resetBeforeForward}, ` +
      `unavailable ${f.unavailable}, delayRequest ${f.delayRequest}, delayAnswer ${f.delayAnswer}; ` +
      `held attempts accepted after a refusal of their key (the race) ${p.proxy.landedAfterRefusal}; upstream errors ${p.proxy.upstreamErrors}; ` +
      `simulator invariants: ${p.invariantViolations.length === 0 ? 'ok' : p.invariantViolations.join('; ')}`,
  );
  if (place.examples.length) lines.push(`false refusal keys: ${place.examples.join(', ')}`);

  const o = s.operations;
  lines.push(
    '',
    `stream: ${s.seconds} s; ${o.placed} placed (+${o.counterpartyPlaced} MINT), ${o.modified} modifies ` +
      `(${o.sameMsModifies} in the same ms as the order's previous state), ${o.cancelled} cancels, ` +
      `${o.cancelAlls} cancel-alls, ${o.clears} clears, ${o.clockAdvances} 1 ms ticks, ${o.refused} refused`,
  );
  const srow = (label: string, v: string | number) => `${label.padEnd(44)}${String(v).padStart(10)}`;
  for (const [label, v] of [
    ['socket kills (of which long outages)', `${s.kills} (${s.longOutages})`],
    ['reconnects', s.reconnects],
    ['resyncs (stream.resync markers seen)', `${s.resyncs} (${s.resyncMarkers})`],
    ['account events published (server seq)', s.accountEventsPublished],
    ['events delivered live / from REST', `${s.liveEventsDelivered} / ${s.restEventsDelivered}`],
    ['orders', s.orders],
    ['order states expected (simulator truth)', s.expectedStates],
    ['order states delivered', s.deliveredStates],
    ['collapsed by a resync (allowed)', s.collapsedByResync],
    ['DUPLICATES', s.duplicates],
    ['MISSING', s.missing],
    ['  of which final states', s.missingFinal],
    ['OUT OF ORDER (older after newer)', s.outOfOrder],
    ['client-side duplicates dropped', s.clientDuplicatesDropped],
    ['caught up at the end', s.caughtUp ? 'yes' : 'NO'],
  ] as const)
    lines.push(srow(label, v));
  if (s.examples.length) lines.push(`missing, e.g.: ${s.examples.slice(0, 3).join('; ')}`);
  if (s.duplicateExamples.length)
    lines.push(`duplicated, e.g.: ${s.duplicateExamples.slice(0, 3).join('; ')}`);
  lines.push('', ...formatMirror(s.mirror), '', ...formatWait(report.wait));
  const failed = Object.entries(report.failures);
  lines.push(
    '',
    failed.length === 0 ? 'RESULT: ok' : `RESULT: ${failed.map(([k, n]) => `${k} ${n}`).join(', ')}`,
  );
  return lines.join('\n');
}

function parseArgs(argv: string[]): ChaosOptions & { json: boolean } {
  const out: ChaosOptions & { json: boolean } = { json: false };
  const srcFromEnv = process.env.MATCH_VENUE_SRC;
  if (srcFromEnv) out.srcRoot = srcFromEnv;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const count = (name: string) => {
      const n = Number(value());
      if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number`);
      return n;
    };
    if (arg === '--placements') out.placements = Math.floor(count('--placements'));
    else if (arg === '--seconds') out.seconds = count('--seconds');
    else if (arg === '--seed') out.seed = Math.floor(count('--seed'));
    else if (arg === '--wait-seconds') out.waitSeconds = count('--wait-seconds');
    else if (arg === '--src') out.srcRoot = value();
    else if (arg === '--json') out.json = true;
    else
      throw new Error(
        `unknown argument ${arg}; usage: bench/chaos.ts [--placements N] [--seconds S] [--seed X] [--wait-seconds W] [--src DIR] [--json]`,
      );
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { json, ...options } = parseArgs(process.argv.slice(2));
  // A hard stop, whatever happens: a run is bounded. Generous: the placements take ~10 ms each
  // under faults at the default concurrency, the stream run its seconds plus a catch-up bound (and
  // its quiet points), the wait run its seconds plus the waits' 30 s timeout.
  const limitMs =
    150_000 +
    (options.placements ?? 5_200) * 40 +
    (options.seconds ?? 20) * 2_000 +
    (options.waitSeconds ?? 10) * 2_000;
  const guard = setTimeout(() => {
    console.error(`chaos: still running after ${limitMs} ms; giving up`);
    process.exit(2);
  }, limitMs);
  guard.unref();
  console.error(`chaos: source ${options.srcRoot ?? DEFAULT_SRC_ROOT}`);
  const report = await runChaos(options);
  console.log(json ? JSON.stringify(report, null, 2) : formatChaos(report));
  process.exitCode = Object.keys(report.failures).length === 0 ? 0 : 1;
}
