/**
 * Where the probe's clock starts: at the opening of the auction that was open at the cassette's
 * first step when the recording shows it (an `opensAt` at or before that step, in any answer or
 * frame), so the probe's auctions lock and clear when the recorded ones did; else at the first step.
 */
import type { CassetteEntry, CassetteJson } from '../../contract/cassette.js';

function opensAtIn(value: CassetteJson, out: number[]): void {
  if (Array.isArray(value)) for (const item of value) opensAtIn(item, out);
  else if (value !== null && typeof value === 'object')
    for (const [name, item] of Object.entries(value)) {
      if (name === 'opensAt' && typeof item === 'string' && !Number.isNaN(Date.parse(item)))
        out.push(Date.parse(item));
      else opensAtIn(item, out);
    }
}

/** The probe's start (epoch ms) for `entries`; `createdAt` (the header's) for an empty cassette. */
export function probeStart(entries: readonly CassetteEntry[], createdAt: string): number {
  if (entries.length === 0) return Date.parse(createdAt);
  const first = Math.min(...entries.map((e) => Date.parse(e.at)));
  const opens: number[] = [];
  for (const e of entries) {
    if (e.kind === 'http' && e.response) opensAtIn(e.response.body, opens);
    if (e.kind === 'ws' && e.frame !== undefined) opensAtIn(e.frame, opens);
  }
  const before = opens.filter((t) => t <= first);
  return before.length > 0 ? Math.max(...before) : first;
}
