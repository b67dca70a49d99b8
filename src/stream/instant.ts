// ISO 8601 instants compared at full precision. Date.parse keeps only milliseconds, so two
// changes of one order a few microseconds apart (a server that sends them) would look equal.

const FRACTION = /^(.*T\d{2}:\d{2}:\d{2})(?:[.,](\d+))?(.*)$/;

/**
 * Nanoseconds since the epoch, or undefined when the text is not a date-time. Digits past the
 * ninth are ignored; the offset (Z or ±hh:mm) is applied.
 */
export function instantNs(iso: string): bigint | undefined {
  const m = FRACTION.exec(iso);
  if (!m) return undefined;
  const [, head, digits = '', zone] = m;
  const ms = Date.parse(`${head}${zone}`);
  if (!Number.isFinite(ms)) return undefined;
  return BigInt(ms) * 1_000_000n + BigInt(digits.slice(0, 9).padEnd(9, '0'));
}

/** <0, 0 or >0 as `a` is before, at or after `b`; undefined when either is not a date-time. */
export function compareInstants(a: string, b: string): number | undefined {
  const x = instantNs(a);
  const y = instantNs(b);
  if (x === undefined || y === undefined) return undefined;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** One spelling per instant (`...00Z` and `...00.000Z` agree); text that is not a date stays as is. */
export function canonicalInstant(iso: string): string {
  const ns = instantNs(iso);
  return ns === undefined ? iso : ns.toString();
}
