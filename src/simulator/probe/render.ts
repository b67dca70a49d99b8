/**
 * A probe report as text: the key assignments, a table of the differences (one row each: the
 * cassette line, where, the kind, the path `--ignore` takes, recorded, simulated), the notes, and a
 * summary line. `--json` prints the report itself instead.
 */
import type { ProbeReport } from './report.js';

/** A cell longer than this is cut (the JSON report has it whole). */
const CELL_MAX = 48;

const cell = (text: string) => (text.length > CELL_MAX ? `${text.slice(0, CELL_MAX - 1)}…` : text);

function table(header: readonly string[], rows: readonly string[][]): string[] {
  const cells = [header, ...rows].map((row) => row.map(cell));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  return cells.map((row) =>
    row
      .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/** The summary line: `N exchanges, M events compared: K differences`. */
export function summaryLine(report: ProbeReport): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const ignored = report.ignored > 0 ? ` (${report.ignored} more ignored)` : '';
  return `${plural(report.exchanges, 'exchange')}, ${plural(report.events, 'event')} compared: ${plural(report.differences.length, 'difference')}${ignored}`;
}

/** The report as the CLI prints it: key assignments, a table of the differences, notes, the summary line. */
export function renderProbeReport(report: ProbeReport): string {
  const lines: string[] = [`probe: a fresh simulator from ${report.startTime}`];
  for (const k of report.keys)
    lines.push(
      `  key ${k.keyId} -> ${k.entity} (${k.how === 'named' ? 'it names the entity' : k.how === 'as' ? '--as' : 'in order of first appearance; --as to choose'})`,
    );
  if (report.ids.length > 0)
    lines.push(`  ${report.ids.length} recorded ids sent as the simulator's (--json lists them)`);
  lines.push('');
  if (report.differences.length > 0) {
    const rows = report.differences.map((d) => [
      String(d.line),
      d.where,
      d.kind,
      d.path,
      d.recorded,
      d.simulated,
    ]);
    lines.push(...table(['line', 'where', 'kind', 'path', 'recorded', 'simulated'], rows), '');
  }
  for (const note of report.notes) lines.push(`note: ${note}`);
  if (report.notes.length > 0) lines.push('');
  lines.push(summaryLine(report));
  return `${lines.join('\n')}\n`;
}
