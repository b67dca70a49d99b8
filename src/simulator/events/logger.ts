/** The simulator's logger port: createSimulator's `logger`, the CLI's log, the clock jump's progress. */

/** Where the simulator reports; it logs no secrets. */
export interface Logger {
  /** Informational lines: a long clock jump's progress (clock-jump.ts). */
  info(message: string): void;
  /** Unexpected failures (a 500, a listener that threw), with the error. */
  error(message: string, err?: unknown): void;
}
