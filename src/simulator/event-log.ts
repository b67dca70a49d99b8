/**
 * The replayable event log (`GET /_sim/log`, `sim.eventLog()`): every venue event and control
 * action in the order they happened, one JSON line each. Lines are serialized when they happen (a
 * later change to an object cannot rewrite history) and kept in a ring of `capacity` lines, so a
 * long run holds a bounded amount: the oldest lines go first, and `dropped` counts them.
 */
import type { SimulatorEvent } from './engine/types.js';

/** Lines kept by default when the log is on (`eventLog: true`). */
export const DEFAULT_EVENT_LOG_LINES = 10_000;
/** The most lines a log may keep (a line is a few hundred bytes: about 1 GB at most). */
export const MAX_EVENT_LOG_LINES = 5_000_000;

/** `eventLog` as a ring size: off (0), the default, or a count. Throws a RangeError naming it. */
export function eventLogLines(option: boolean | number | undefined): number {
  if (option === undefined || option === false) return 0;
  if (option === true) return DEFAULT_EVENT_LOG_LINES;
  if (!Number.isInteger(option) || option < 0 || option > MAX_EVENT_LOG_LINES)
    throw new RangeError(`eventLog must be a boolean or an integer from 0 to ${MAX_EVENT_LOG_LINES}`);
  return option;
}

export class EventLog {
  private readonly lines: string[] = [];
  /** Where the oldest line sits once the ring is full. */
  private head = 0;
  /** Lines that fell out of the ring since the log was last emptied. */
  dropped = 0;

  constructor(readonly capacity: number) {}

  /** A venue event; its data carries its own times (a clock jump emits many at their instants). */
  event(e: SimulatorEvent): void {
    this.push({ type: 'event', ...e });
  }

  /** A control action (`/_sim/*` or the in-process call), before its consequences. */
  control(at: number, action: string, args?: unknown): void {
    this.push({
      at: new Date(at).toISOString(),
      type: 'control',
      action,
      ...(args === undefined ? {} : { args }),
    });
  }

  private push(entry: object): void {
    const line = JSON.stringify(entry);
    if (this.lines.length < this.capacity) this.lines.push(line);
    else {
      this.lines[this.head] = line;
      this.head = (this.head + 1) % this.capacity;
      this.dropped++;
    }
  }

  /** Empties the log (a restore starts a new history). */
  clear(): void {
    this.lines.length = 0;
    this.head = 0;
    this.dropped = 0;
  }

  /** The lines kept, oldest first, as NDJSON (each line ends with a newline). */
  ndjson(): string {
    const ordered = [...this.lines.slice(this.head), ...this.lines.slice(0, this.head)];
    return ordered.length === 0 ? '' : `${ordered.join('\n')}\n`;
  }
}
