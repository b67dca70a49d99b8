/**
 * Where the probe's clock starts: at the opening of the auction that was open at the cassette's
 * first step, when an answer or a frame of the recording shows that auction (an object with
 * `opensAt` at or before the first step and `clearsAt` after it), so the probe's auctions lock and
 * clear when the recorded ones did; else at the first step.
 */
import type { CassetteEntry, CassetteJson } from '../../contract/cassette.js';

type Window = { opensAt: number; clearsAt: number };

function windowsIn(value: CassetteJson, out: Window[]): void {
  if (Array.isArray(value)) for (const item of value) windowsIn(item, out);
  else if (value !== null && typeof value === 'object') {
    const [opensAt, clearsAt] = [value.opensAt, value.clearsAt];
    if (typeof opensAt === 'string' && typeof clearsAt === 'string') {
      const window = { opensAt: Date.parse(opensAt), clearsAt: Date.parse(clearsAt) };
      if (!Number.isNaN(window.opensAt) && !Number.isNaN(window.clearsAt)) out.push(window);
    }
    for (const item of Object.values(value)) windowsIn(item, out);
  }
}

/** The probe's start (epoch ms) for `entries`; `createdAt` (the header's) for an empty cassette. */
export function probeStart(entries: readonly CassetteEntry[], createdAt: string): number {
  if (entries.length === 0) return Date.parse(createdAt);
  const first = Math.min(...entries.map((e) => Date.parse(e.at)));
  const windows: Window[] = [];
  for (const e of entries) {
    if (e.kind === 'http' && e.response) windowsIn(e.response.body, windows);
    if (e.kind === 'ws' && e.frame !== undefined) windowsIn(e.frame, windows);
  }
  const open = windows.find((w) => w.opensAt <= first && first < w.clearsAt);
  return open ? open.opensAt : first;
}
