/**
 * One connection's recorded events against the probe's: the events as recorded (only `event`
 * frames; hello, subscribed and pong are the protocol's, not the venue's), the sequence differences,
 * and the data of the events paired compared by shape, each difference once per event kind and path
 * (a field missing from every `auction.cleared` is one row, not one per auction). The content of
 * `auction.snapshot` is not compared.
 */
import type { CassetteEntry, CassetteJson } from '../../contract/cassette.js';
import { compareEvents, type StreamEvent } from './events.js';
import type { ProbeDifference } from './report.js';
import { compareShapes } from './shape.js';

/** The `event` frames `connection` received, in the order recorded. */
export function recordedEvents(entries: readonly CassetteEntry[], connection: number): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (const e of entries) {
    if (e.kind !== 'ws' || e.connection !== connection || e.event !== 'receive') continue;
    const frame = e.frame as Record<string, CassetteJson> | null | undefined;
    if (frame?.type === 'event' && typeof frame.channel === 'string' && typeof frame.event === 'string')
      out.push({ channel: frame.channel, event: frame.event, data: frame.data });
  }
  return out;
}

const positions = (list: number[]) => (list.length ? list.map((n) => `#${n}`).join(', ') : '-');

/** The differences of one connection (`where`, opened at cassette `line`). */
export function streamDifferences(
  recorded: readonly StreamEvent[],
  simulated: readonly StreamEvent[],
  line: number,
  where: string,
): ProbeDifference[] {
  const { differences, pairs } = compareEvents(recorded, simulated);
  const out: ProbeDifference[] = differences.map((d) => ({
    line,
    where,
    kind: d.kind,
    path: `events.${d.channel}.${d.event}`,
    recorded: positions(d.recorded),
    simulated: positions(d.simulated),
  }));
  const seen = new Set<string>();
  for (const [i, j] of pairs) {
    const [r, s] = [recorded[i] as StreamEvent, simulated[j] as StreamEvent];
    if (r.event === 'auction.snapshot') continue;
    for (const d of compareShapes(r.data, s.data, 'data')) {
      const key = `${r.channel} ${r.event} ${d.kind} ${d.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ line, where: `${where} #${i + 1} ${r.channel} ${r.event}`, ...d });
    }
  }
  return out;
}
