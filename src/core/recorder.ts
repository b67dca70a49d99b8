import { readApiKey } from '../contract/api-key.js';
import { type CassetteWriter, cassetteWriter } from './cassette-file.js';

// What `record` (MATCH_VENUE_RECORD) gives each client and webhook receiver: its key's id, and the
// shared cassette file (core/cassette-file.ts) its lines are appended to. Made only when recording:
// a client that does not record holds no recorder, and nothing of the pipeline or the stream checks
// for one per exchange. Only what must refuse a bad file at construction is here, in the main
// bundle; the writing of lines (their redaction: record-entry.ts) and the transport and socket that
// write them load with a recording client's first call (record-load.ts, stream/load.ts).

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
  /** Exact secrets every line is cleared of (record-entry.ts redacts with them). */
  readonly secrets: readonly string[];
  readonly #writer: CassetteWriter;
  readonly #warn: (message: string) => void;
  #failed = false;

  /** Opens (or joins) the cassette `file`; throws `options.refuse(...)` when it cannot be used. */
  constructor(file: string, keyId: string | null, options: RecorderOptions) {
    this.#writer = cassetteWriter(file, options.refuse);
    this.keyId = keyId;
    this.secrets = options.secrets;
    this.#warn = options.warn;
  }

  /** The next WebSocket connection number of the file (unique across its recorders). */
  nextConnection(): number {
    return this.#writer.nextConnection();
  }

  /** Appends one line, already redacted. Throws what the file system throws. */
  append(line: string): void {
    this.#writer.append(line);
  }

  /**
   * Reports that a line could not be written (`reason` already redacted), the first time only: the
   * exchange it records goes on, and later failures are silent.
   */
  failed(reason: string): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#warn(
      `recording to ${this.#writer.file} failed (${reason}); the calls go on, later write failures are not reported`,
    );
  }
}
