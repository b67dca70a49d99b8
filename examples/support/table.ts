/**
 * Tables for people: aligned columns, no index column, no quotes; numbers right-aligned; the
 * header bold and the rule dim on a terminal that takes colour (not under NO_COLOR, not when
 * piped, unless FORCE_COLOR says so).
 */
export type Row = Record<string, string | number>;

export interface TableOptions {
  /** Colour the header; default: stdout is a TTY and NO_COLOR is unset, or FORCE_COLOR is set. */
  color?: boolean;
  /** Prefix of every line. Default two spaces. */
  indent?: string;
}

const NUMERIC = /^[-+]?[\d,]+(\.\d+)?$/;

export function stdoutTakesColor(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return process.stdout.isTTY === true && env.NO_COLOR === undefined;
}

/** The table as lines of text. */
export function formatTable(rows: readonly Row[], options: TableOptions = {}): string[] {
  const color = options.color ?? stdoutTakesColor();
  const indent = options.indent ?? '  ';
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (r: Row, c: string) => String(r[c] ?? '');
  // A column of numbers (blanks and dashes allowed) is right-aligned, as a ledger is.
  const rightAligned = columns.map((c) =>
    rows.every((r) => {
      const v = cell(r, c);
      return v === '' || v === '-' || NUMERIC.test(v);
    }),
  );
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r, c).length)));
  const pad = (text: string, i: number) =>
    rightAligned[i] ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0);
  const line = (cells: string[]) => `${indent}${cells.map(pad).join('  ')}`.trimEnd();
  const header = line(columns);
  const rule = `${indent}${widths.map((w) => '─'.repeat(w)).join('  ')}`;
  return [
    color ? `\x1b[1m${header}\x1b[22m` : header,
    color ? `\x1b[2m${rule}\x1b[22m` : rule,
    ...rows.map((r) => line(columns.map((c) => cell(r, c)))),
  ];
}

/** Prints the table to stdout. */
export function printTable(rows: readonly Row[], options?: TableOptions): void {
  for (const l of formatTable(rows, options)) console.log(l);
}
