/**
 * The replayable event log (`GET /_sim/log`, `sim.eventLog()`): every venue event and control
 * action in the order they happened, one JSON line each. Lines are serialized when they happen (a
 * later change to an object cannot rewrite history) and kept in a ring bounded twice, in lines and
 * in bytes, so a long run holds a bounded amount and the log always fits in one answer: the oldest
 * lines go first, and `dropped` counts them. One line is bounded too: a line past MAX_LINE_BYTES
 * (a fault setting naming a million order ids) is kept as a summary that names what it left out.
 */
import type { SimulatorEvent } from '../engine/types.js';

/** Lines kept by default when the log is on (`eventLog: true`). */
export const DEFAULT_EVENT_LOG_LINES = 10_000;
/** The most lines a log may keep. */
export const MAX_EVENT_LOG_LINES = 5_000_000;
/** Bytes kept by default (UTF-8, newlines included): a default log is a few MB, far below this. */
export const DEFAULT_EVENT_LOG_BYTES = 64 * 1024 * 1024;
/**
 * The most bytes a log may keep. The answer is one string: V8 refuses strings past about 512 M
 * characters ("Invalid string length", a 500 before issue 33), and a UTF-8 byte count is never
 * below the character count, so 256 MiB leaves it far under that.
 */
export const MAX_EVENT_LOG_BYTES = 256 * 1024 * 1024;
/** The fewest bytes a log may be bounded to (a few ordinary lines). */
export const MIN_EVENT_LOG_BYTES = 4096;
/** A line longer than this (UTF-8 bytes) is summarised. */
export const MAX_LINE_BYTES = 64 * 1024;
/** A field of a summarised line is kept when its JSON is at most this long. */
const KEPT_FIELD_BYTES = 1024;

/** `eventLog` as an object: the ring's bounds. */
export interface EventLogBounds {
  /** Lines kept (default 10,000; 1 to 5,000,000). */
  lines?: number;
  /** UTF-8 bytes kept, newlines included (default 64 MiB; 4096 to 256 MiB). */
  bytes?: number;
}

/** The option of that name: off, on with the defaults, a number of lines, or both bounds. */
export type EventLogOption = boolean | number | EventLogBounds;

function bounded(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

/** `eventLog` as the ring's bounds, `lines` 0 when off. Throws a RangeError naming the option. */
export function eventLogBounds(option: EventLogOption | undefined): { lines: number; bytes: number } {
  const bytes = DEFAULT_EVENT_LOG_BYTES;
  if (option === undefined || option === false) return { lines: 0, bytes };
  if (option === true) return { lines: DEFAULT_EVENT_LOG_LINES, bytes };
  if (typeof option === 'number') {
    if (!Number.isInteger(option) || option < 0 || option > MAX_EVENT_LOG_LINES)
      throw new RangeError(
        `eventLog must be a boolean, an integer from 0 to ${MAX_EVENT_LOG_LINES} or {lines, bytes}`,
      );
    return { lines: option, bytes };
  }
  if (typeof option !== 'object' || option === null)
    throw new RangeError('eventLog must be a boolean, a number of lines or {lines, bytes}');
  for (const key of Object.keys(option))
    if (key !== 'lines' && key !== 'bytes') throw new RangeError(`eventLog.${key} is not an option`);
  return {
    lines:
      option.lines === undefined
        ? DEFAULT_EVENT_LOG_LINES
        : bounded(option.lines, 'eventLog.lines', 1, MAX_EVENT_LOG_LINES),
    bytes:
      option.bytes === undefined
        ? bytes
        : bounded(option.bytes, 'eventLog.bytes', MIN_EVENT_LOG_BYTES, MAX_EVENT_LOG_BYTES),
  };
}

/** UTF-8 length of `s` (JSON.stringify leaves non-ASCII as is); ASCII, the usual line, is its length. */
export function utf8Bytes(s: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point.
  if (!/[^\u0000-\u007f]/.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A surrogate pair is 4 bytes: 2 for each half.
    n += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
  }
  return n;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A line past MAX_LINE_BYTES, summarised: its small fields (and the small fields of its `args` or
 * `data`) as they were, the others left out and named in `truncated.paths` with the line's size.
 * A summary line is not replayable as it stands; it says so by its `truncated` field.
 */
export function summariseLine(entry: Record<string, unknown>, bytes: number, limit = MAX_LINE_BYTES): string {
  const paths: string[] = [];
  const keep = (obj: Record<string, unknown>, prefix: string, depth: number) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(obj)) {
      if (depth === 0 && isPlainObject(value)) {
        out[key] = keep(value, `${key}.`, 1);
        continue;
      }
      // A long array or string is too big without serializing it again (an element takes 2 bytes or more).
      const long =
        (Array.isArray(value) && value.length * 2 > KEPT_FIELD_BYTES) ||
        (typeof value === 'string' && value.length > KEPT_FIELD_BYTES);
      if (!long && utf8Bytes(JSON.stringify(value) ?? '') <= KEPT_FIELD_BYTES) out[key] = value;
      else paths.push(`${prefix}${key}`);
    }
    return out;
  };
  const summary = JSON.stringify({ ...keep(entry, '', 0), truncated: { bytes, paths } });
  if (utf8Bytes(summary) <= limit) return summary;
  // Many middling fields: only what names the line.
  const { at, type, action, channel, event } = entry;
  return JSON.stringify({ at, type, action, channel, event, truncated: { bytes, paths: ['*'] } });
}

/** The log `eventLog` asks for, or undefined when it is off. Throws a RangeError naming the option. */
export function newEventLog(option: EventLogOption | undefined): EventLog | undefined {
  const { lines, bytes } = eventLogBounds(option);
  return lines > 0 ? new EventLog(lines, bytes) : undefined;
}

export class EventLog {
  /** The lines from `first` on are kept, oldest first; the ones before it wait to be compacted. */
  private lines: string[] = [];
  private sizes: number[] = [];
  private first = 0;
  /** Bytes kept, newlines included. */
  private bytes = 0;
  /** Lines that fell out of the ring since the log was last emptied. */
  dropped = 0;

  constructor(
    readonly capacity: number,
    readonly maxBytes: number = DEFAULT_EVENT_LOG_BYTES,
  ) {}

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

  private push(entry: Record<string, unknown>): void {
    let line = JSON.stringify(entry);
    let size = utf8Bytes(line);
    const limit = Math.min(MAX_LINE_BYTES, this.maxBytes - 1);
    if (size > limit) {
      line = summariseLine(entry, size, limit);
      size = utf8Bytes(line);
    }
    size += 1;
    while (this.count > 0 && (this.count >= this.capacity || this.bytes + size > this.maxBytes))
      this.dropOldest();
    this.lines.push(line);
    this.sizes.push(size);
    this.bytes += size;
  }

  private get count(): number {
    return this.lines.length - this.first;
  }

  private dropOldest(): void {
    this.bytes -= this.sizes[this.first] ?? 0;
    this.first++;
    this.dropped++;
    // Compacting once half the array is gone keeps a drop O(1) amortized.
    if (this.first >= 1024 && this.first * 2 >= this.lines.length) {
      this.lines = this.lines.slice(this.first);
      this.sizes = this.sizes.slice(this.first);
      this.first = 0;
    }
  }

  /** Empties the log (a restore starts a new history). */
  clear(): void {
    this.lines = [];
    this.sizes = [];
    this.first = 0;
    this.bytes = 0;
    this.dropped = 0;
  }

  /** The lines kept, oldest first, as NDJSON (each line ends with a newline); at most `maxBytes`. */
  ndjson(): string {
    const kept = this.first === 0 ? this.lines : this.lines.slice(this.first);
    return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
  }
}
