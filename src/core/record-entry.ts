import type { CassetteEntry, CassetteJson } from '../contract/cassette.js';
import { redactForCassette } from '../contract/cassette-redact.js';
import { redactText } from '../contract/redact.js';
import type { Recorder } from './recorder.js';

// The writing of one cassette line: redacted, then appended. Loaded with the recording transport
// or socket (record-load.ts), never with the client: a client that does not record never runs it.
// The webhook receiver's entry imports it directly.

/**
 * Redacts `entry` and appends it to `recorder`'s file. Never throws: a failed write is reported
 * once and the exchange it records goes on (recording must not break the bot it watches).
 */
export function recordEntry(recorder: Recorder, entry: CassetteEntry): void {
  try {
    const redacted = redactForCassette(entry as unknown as CassetteJson, recorder.secrets);
    recorder.append(JSON.stringify(redacted));
  } catch (err) {
    recorder.failed(redactText(err instanceof Error ? err.message : String(err), recorder.secrets));
  }
}
