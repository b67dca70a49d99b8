/**
 * The events of one WebSocket connection, recorded against simulated: the sequences of (channel,
 * event) aligned by their longest common subsequence. What stays unaligned is a reordering when the
 * same kind is left over on both sides, else a missing kind (recorded only) or an extra one
 * (simulated only). Each is reported once per kind, with the 1-based positions in each sequence.
 */

export interface StreamEvent {
  channel: string;
  event: string;
  data: unknown;
}

export interface EventDifference {
  kind: 'order' | 'missing' | 'extra';
  /** `account order.updated`. */
  name: string;
  channel: string;
  event: string;
  /** Positions in the recorded sequence (1-based). */
  recorded: number[];
  /** Positions in the simulated sequence (1-based). */
  simulated: number[];
}

export interface EventComparison {
  differences: EventDifference[];
  /** Recorded and simulated positions (0-based) of the events paired: aligned, or the same kind moved. */
  pairs: [number, number][];
}

/** Beyond this many cells the middle is not aligned: its events count as missing and extra. */
const MAX_CELLS = 4_000_000;

const nameOf = (e: StreamEvent) => `${e.channel} ${e.event}`;

/** Aligned positions [recorded, simulated] of the longest common subsequence of `a` and `b`. */
function align(a: readonly string[], b: readonly string[]): [number, number][] {
  const pairs: [number, number][] = [];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) pairs.push([start, start++]);
  let [endA, endB] = [a.length, b.length];
  const tail: [number, number][] = [];
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) tail.push([--endA, --endB]);
  const [n, m] = [endA - start, endB - start];
  if (n > 0 && m > 0 && (n + 1) * (m + 1) <= MAX_CELLS) {
    // lcs[i][j]: the longest common subsequence of a[start+i..] and b[start+j..].
    const lcs = new Uint32Array((n + 1) * (m + 1));
    const at = (i: number, j: number) => i * (m + 1) + j;
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[at(i, j)] =
          a[start + i] === b[start + j]
            ? (lcs[at(i + 1, j + 1)] as number) + 1
            : Math.max(lcs[at(i + 1, j)] as number, lcs[at(i, j + 1)] as number);
    let [i, j] = [0, 0];
    while (i < n && j < m) {
      if (a[start + i] === b[start + j]) pairs.push([start + i++, start + j++]);
      else if ((lcs[at(i + 1, j)] as number) >= (lcs[at(i, j + 1)] as number)) i++;
      else j++;
    }
  }
  return pairs.concat(tail.reverse());
}

export function compareEvents(
  recorded: readonly StreamEvent[],
  simulated: readonly StreamEvent[],
): EventComparison {
  const [a, b] = [recorded.map(nameOf), simulated.map(nameOf)];
  const pairs = align(a, b);
  const [pairedA, pairedB] = [new Set(pairs.map(([i]) => i)), new Set(pairs.map(([, j]) => j))];
  const leftA = a.map((_, i) => i).filter((i) => !pairedA.has(i));
  const leftB = b.map((_, j) => j).filter((j) => !pairedB.has(j));
  const byName = new Map<string, EventDifference>();
  const note = (kind: EventDifference['kind'], e: StreamEvent, i?: number, j?: number) => {
    const name = nameOf(e);
    const key = `${kind} ${name}`;
    const d = byName.get(key) ?? {
      kind,
      name,
      channel: e.channel,
      event: e.event,
      recorded: [],
      simulated: [],
    };
    if (i !== undefined) d.recorded.push(i + 1);
    if (j !== undefined) d.simulated.push(j + 1);
    byName.set(key, d);
  };
  const moved: [number, number][] = [];
  for (const i of leftA) {
    // The same kind left over on the simulated side: it came, at another place.
    const k = leftB.findIndex((j) => b[j] === a[i]);
    if (k >= 0) {
      const [j] = leftB.splice(k, 1) as [number];
      moved.push([i, j]);
      note('order', recorded[i] as StreamEvent, i, j);
    } else note('missing', recorded[i] as StreamEvent, i);
  }
  for (const j of leftB) note('extra', simulated[j] as StreamEvent, undefined, j);
  return { differences: [...byName.values()], pairs: pairs.concat(moved) };
}
