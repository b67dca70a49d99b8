import { redact, redactText } from '../contract/redact.js';

// The redaction lives in the contract layer, where the SDK's error base (contract/base-error.ts)
// and the simulator's errors can use it too; re-exported for the SDK's own importers.
export { redact, redactHeaders, redactText } from '../contract/redact.js';

/** The level of one log line. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** The minimum level a client logs; `silent` logs nothing. */
export type LogLevelOption = LogLevel | 'silent';

/** Anything with these four methods (console, pino, winston...) can be the logger. */
export interface Logger {
  /** Per-request detail: method, path, status, attempt, duration, request id. */
  debug(message: string, meta?: Record<string, unknown>): void;
  /** Notable events the caller may want to see, e.g. a retry's refusal settled from the server's state. */
  info(message: string, meta?: Record<string, unknown>): void;
  /** Retries and failures the client recovered from or is about to report. */
  warn(message: string, meta?: Record<string, unknown>): void;
  /** Faults in the caller's code the client caught, e.g. a stream listener that threw. */
  error(message: string, meta?: Record<string, unknown>): void;
}

const RANK: Record<LogLevelOption, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * Wraps a logger with a level filter and redaction, so no call site can leak a secret by
 * accident. `secrets` are exact strings (the API key) removed wherever they appear.
 */
export function createLogger(
  target: Logger | undefined,
  level: LogLevelOption,
  secrets: () => readonly string[] = () => [],
): Logger & { enabled(level: LogLevel): boolean } {
  const min = RANK[level];
  const sink = target ?? console;
  const emit = (lvl: LogLevel) => (message: string, meta?: Record<string, unknown>) => {
    if (RANK[lvl] < min) return;
    const s = secrets();
    const text = `[match-venue] ${redactText(message, s)}`;
    if (meta === undefined) sink[lvl](text);
    else sink[lvl](text, redact(meta, s) as Record<string, unknown>);
  };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    enabled: (lvl) => RANK[lvl] >= min,
  };
}
