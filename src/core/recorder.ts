import { readApiKey } from '../contract/api-key.js';
import { type CassetteEntry, type CassetteJson, redactForCassette } from '../contract/cassette.js';
import { redactText } from '../contract/redact.js';
import { type CassetteWriter, cassetteWriter } from './cassette-file.js';

// What `record` (MATCH_VENUE_RECORD) gives each client and webhook receiver: its key's id, and one
// call that redacts a line and appends it to the shared cassette file (core/cassette-file.ts). Made
// only when recording: a client that does not record holds no recorder, and nothing of the pipeline
// or the stream checks for one per exchange.

/** How a recorder reports. */
export interface RecorderOptions {
  /** Exact secrets removed wherever they appear in a line (the client's API key). */
  secrets: readonly string[];
  /** Told once, the first time a line cannot be written; later failures are silent. */
  warn: (message: string) => void;
  /** The error to throw when the file cannot be recorded to (ConfigurationError for the client). */
  refuse: (message: string) => Error;
}

/** The id part of a platform key (`TEST_API_KEY:<id>:…`; not secret), or null for another key. */
export function keyIdOf(apiKey: string | undefined): string | null {
  const reading = readApiKey(apiKey);
  return reading.ok ? reading.id : null;
}

/** One client's (or receiver's) recording into a cassette file. */
export class Recorder {
  /** The id part of the recording client's API key, written on its REST and WebSocket lines. */
  readonly keyId: string | null;
  readonly #writer: CassetteWriter;
  readonly #options: RecorderOptions;
  #failed = false;

  /** Opens (or joins) the cassette `file`; throws `options.refuse(...)` when it cannot be used. */
  constructor(file: string, keyId: string | null, options: RecorderOptions) {
    this.#writer = cassetteWriter(file, options.refuse);
    this.keyId = keyId;
    this.#options = options;
  }

  /** The next WebSocket connection number of the file (unique across its recorders). */
  nextConnection(): number {
    return this.#writer.nextConnection();
  }

  /**
   * Redacts `entry` and appends it. Never throws: a failed write is reported once and the exchange
   * it records goes on (recording must not break the bot it watches).
   */
  record(entry: CassetteEntry): void {
    try {
      const redacted = redactForCassette(entry as unknown as CassetteJson, this.#options.secrets);
      this.#writer.append(JSON.stringify(redacted));
    } catch (err) {
      if (this.#failed) return;
      this.#failed = true;
      const reason = redactText(err instanceof Error ? err.message : String(err), this.#options.secrets);
      this.#options.warn(
        `recording to ${this.#writer.file} failed (${reason}); the calls go on, later write failures are not reported`,
      );
    }
  }
}
