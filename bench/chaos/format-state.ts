/**
 * The printed tables of the state-layer chaos (issue 17): the account mirrors at the stream run's
 * quiet points, and orders.waitForOutcome while event frames are dropped. bench/chaos.ts prints them.
 */
import type { MirrorChaosReport } from './mirror-check.js';
import type { WaitChaosReport } from './wait.js';

const row = (label: string, v: string | number) => `${label.padEnd(44)}${String(v).padStart(16)}`;

export function formatMirror(m: MirrorChaosReport): string[] {
  if (!m.available) return ['mirror: not possible (this source tree has no account.mirror)'];
  const lines = [
    `mirror: burner and minter mirrors on their own sockets through the same proxy; ${m.quietPoints} quiet points`,
  ];
  const both = (get: (s: MirrorChaosReport['burner']) => number) => `${get(m.burner)} / ${get(m.minter)}`;
  for (const [label, v] of [
    ['quiet points equal to the venue', `${m.matched} of ${m.quietPoints}`],
    ['MISMATCHES (not equal within the bound)', m.mismatches],
    ['catch-up to equality, median / max ms', `${m.catchUpMs.median} / ${m.catchUpMs.max}`],
    ['orders compared field by field (all points)', m.ordersCompared],
    ['withdrawals made / compared (all points)', `${m.withdrawalsCreated} / ${m.withdrawalsCompared}`],
    ['  behind but marked stale (documented)', m.staleWithdrawalsBehind],
    ['changes, burner / minter', both((s) => s.changes)],
    ['socket reconnects, burner / minter', both((s) => s.reconnects)],
    ['resyncs, burner / minter', both((s) => s.resyncs)],
    ['CHANGE SEQ GAPS', both((s) => s.seqGaps)],
    ['DUPLICATE CHANGES (same state again)', both((s) => s.duplicates)],
    ['NO-OP CHANGES (equal to the state held)', both((s) => s.noops)],
    ['CHANGES BACK IN TIME', both((s) => s.wentBack + s.outOfOrder)],
  ] as const)
    lines.push(row(label, v));
  if (m.examples.length) lines.push(`mirror differences, e.g.: ${m.examples.slice(0, 4).join(' | ')}`);
  return lines;
}

export function formatWait(w: WaitChaosReport): string[] {
  if (!w.available) return ['waitForOutcome: not possible (this source tree has no orders.waitForOutcome)'];
  const statuses = Object.entries(w.byStatus)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');
  const lines = [
    `waitForOutcome: ${w.seconds} s of rounds (${w.ms} ms), ${Math.round(w.dropRate * 100)}% of account event frames dropped, sockets killed every 0.2–0.8 s`,
  ];
  for (const [label, v] of [
    [
      'rounds / waits (beside stream / mirror)',
      `${w.rounds} / ${w.waits} (${w.listeners.stream} / ${w.listeners.mirror})`,
    ],
    ['account event frames dropped / forwarded', `${w.accountEventsDropped} / ${w.accountEventsForwarded}`],
    ['socket kills / reconnects / resyncs', `${w.kills} / ${w.reconnects} / ${w.resyncs}`],
    ['right final state (equal to the venue)', w.right],
    ['WRONG', w.wrong],
    ['TIMEOUTS', w.timeouts],
    ['OTHER ERRORS', w.errors],
  ] as const)
    lines.push(row(label, v));
  lines.push(`right, by final status: ${statuses || '-'}`);
  if (w.examples.length) lines.push(`wrong or failed, e.g.: ${w.examples.slice(0, 3).join(' | ')}`);
  return lines;
}
