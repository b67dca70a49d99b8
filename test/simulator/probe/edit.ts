// Edits of a recorded cassette, as a venue that departs from the simulator would have recorded it.

// biome-ignore lint/suspicious/noExplicitAny: a cassette line is edited as loose JSON.
export type Line = Record<string, any>;

export function linesOf(text: string): Line[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);
}

export function textOf(lines: readonly Line[]): string {
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('');
}

/** The index of the only line matching `match` (throws when none or several do). */
export function only(lines: readonly Line[], match: (l: Line) => boolean, what: string): number {
  const found = lines.flatMap((l, i) => (match(l) ? [i] : []));
  if (found.length !== 1) throw new Error(`${what}: ${found.length} lines match`);
  return found[0] as number;
}

export const isHttp = (method: string, path: string) => (l: Line) =>
  l.kind === 'http' && l.request.method === method && l.request.path === path;

export const isEvent = (event: string, seq?: number) => (l: Line) =>
  l.kind === 'ws' &&
  l.event === 'receive' &&
  l.frame?.event === event &&
  (seq === undefined || l.frame.seq === seq);

/** `text` with `change` applied to its parsed lines (a deep copy). */
export function edited(text: string, change: (lines: Line[]) => void): string {
  const lines = linesOf(text);
  change(lines);
  return textOf(lines);
}
