/** The `startTime` option (and a scenario's) as epoch ms, and the last instant the simulator keeps. */

// A date alone, or a date and time with its zone: a time without `Z` or an offset would be read in
// the machine's own zone, and a replay on another machine would start elsewhere.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
/** The last instant the simulator keeps (9999-12-31T23:59:59.999Z): every time it writes is a plain ISO string. */
export const MAX_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/**
 * The longest duration the engine's configuration may name (a year), from the options, a scenario
 * or a snapshot alike: a time plus one cycle then stays an instant, and every snapshot restores.
 */
export const MAX_DURATION_MS = 31_536_000_000;

/** `startTime` as epoch ms; `wallNow` when absent. Throws a RangeError naming `startTime`. */
export function startTimeMs(value: Date | number | string | undefined, wallNow: number): number {
  if (value === undefined) return wallNow;
  let ms: number;
  if (value instanceof Date) ms = value.getTime();
  else if (typeof value === 'number') ms = Number.isInteger(value) ? value : Number.NaN;
  else if (typeof value === 'string' && ISO_INSTANT.test(value) && isCalendarDate(value))
    ms = Date.parse(value);
  else ms = Number.NaN;
  // Years 1970 to 9999: every instant the wire writes is then a plain `YYYY-MM-DDTHH:mm:ss.sssZ`.
  if (!(ms >= 0 && ms <= MAX_INSTANT_MS))
    throw new RangeError(
      `startTime must be an ISO 8601 instant with Z or an offset (e.g. 2026-01-01T00:00:00Z), integer ` +
        `epoch milliseconds or a valid Date, between 1970 and 9999; got ${describe(value)}`,
    );
  return ms;
}

// Date.parse rolls 2026-02-30 over into March; a replay's start should be the day written.
function isCalendarDate(iso: string): boolean {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number) as [number, number, number];
  return m >= 1 && m <= 12 && d >= 1 && new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d;
}

function describe(value: unknown): string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : value.toISOString();
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
