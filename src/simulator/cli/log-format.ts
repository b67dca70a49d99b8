/**
 * The CLI's output: each log line as text (stamped `[sim <ISO>]`, coloured on a terminal) or as one
 * JSON object (`--json`). Every line is stamped with the simulated clock, the one every instant the
 * venue reports (createdAt, auction times, event ts) is on; a request's duration is wall-clock ms.
 */
import type { RequestLogEntry } from '../http/request-log.js';

export interface OutputOptions {
  json: boolean;
  colour: boolean;
  /** The simulated clock, epoch ms. */
  now(): number;
  write(line: string): void;
}

type Style = 'dim' | 'red' | 'green' | 'yellow' | 'cyan' | 'magenta' | 'bold';
const SGR: Record<Style, string> = {
  dim: '2',
  red: '31',
  green: '32',
  yellow: '33',
  cyan: '36',
  magenta: '35',
  bold: '1',
};

/**
 * Whether to colour `stream`: never for JSON; FORCE_COLOR (other than 0/false) forces it, else
 * NO_COLOR (non-empty) or NODE_DISABLE_COLORS refuses it, else only on a terminal that is not dumb.
 * The order Node's own `hasColors` uses.
 */
export function wantsColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, json: boolean): boolean {
  if (json) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR || env.NODE_DISABLE_COLORS !== undefined) return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** One JSON line: the line's type and simulated time first, then its fields. */
export type JsonFields = Record<string, unknown>;

export class Output {
  constructor(private readonly o: OutputOptions) {}

  private paint(style: Style, text: string): string {
    return this.o.colour ? `\u001b[${SGR[style]}m${text}\u001b[0m` : text;
  }

  private stamp(): string {
    return simTimeText(this.o.now);
  }

  /**
   * A log line: `text` for a person, `type` + `fields` for a machine. Never throws: the error
   * handler logs through here, and a log line that threw there took the process down (issue 33).
   */
  line(type: string, fields: JsonFields, text: string, style?: Style): void {
    try {
      if (this.o.json) {
        this.o.write(jsonLine(type, this.stamp(), fields));
        return;
      }
      const body = style ? this.paint(style, text) : text;
      this.o.write(`${this.paint('dim', `[sim ${this.stamp()}]`)} ${body}`);
    } catch {
      // The stream itself failed (closed stdout): nothing is left to tell.
    }
  }

  /** A block printed as it is (text mode only; JSON mode prints `fields` as one line instead). */
  block(type: string, fields: JsonFields, lines: readonly string[]): void {
    try {
      if (this.o.json) this.o.write(jsonLine(type, this.stamp(), fields));
      else this.o.write(lines.join('\n'));
    } catch {
      // As in line().
    }
  }

  request(entry: RequestLogEntry): void {
    const ms = Math.round(entry.ms * 10) / 10;
    if (this.o.json) {
      this.line('request', { ...entry, ms }, '');
      return;
    }
    const method = entry.kind === 'websocket' ? 'WS' : entry.method;
    const status = entry.status === null ? 'no answer' : String(entry.status);
    const code = entry.code === undefined ? '' : ` code ${entry.code}`;
    // The client's request id, so an SDK error's clientRequestId can be found here.
    const id =
      entry.requestId === undefined
        ? ''
        : ` ${this.paint('dim', `req ${entry.requestId}${entry.attempt === undefined ? '' : ` #${entry.attempt}`}`)}`;
    this.line(
      'request',
      {},
      `${method} ${entry.path} ${this.paint(statusStyle(entry.status), status + code)} ${this.paint('dim', `${ms} ms`)}${id}`,
    );
  }

  error(message: string, err?: unknown): void {
    const detail = describeError(err);
    this.line(
      'error',
      { message, ...(detail === undefined ? {} : { error: detail }) },
      `ERROR ${message}${detail ? `: ${detail}` : ''}`,
      'red',
    );
  }
}

/**
 * The simulated clock as an ISO instant, or as its raw epoch ms (`t=<n>`) when no Date can show it
 * (beyond year 275760, NaN) or reading it throws: a stamp is never a reason for a log line to fail.
 */
export function simTimeText(now: () => number): string {
  let ms: number;
  try {
    ms = now();
  } catch {
    return 't=?';
  }
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `t=${String(ms)}` : date.toISOString();
}

/** An error's stack (or message, or text); a value whose text cannot be read is named so. */
function describeError(err: unknown): string | undefined {
  try {
    return err instanceof Error ? (err.stack ?? err.message) : err === undefined ? undefined : String(err);
  } catch {
    return '(an error whose text could not be read)';
  }
}

/** One JSON line; a field JSON cannot write (a BigInt, a cycle) is written as its String instead. */
function jsonLine(type: string, simTime: string, fields: JsonFields): string {
  const record = { type, simTime, ...fields };
  try {
    return JSON.stringify(record);
  } catch {
    const safe: Record<string, unknown> = { type, simTime };
    for (const [k, v] of Object.entries(fields)) {
      try {
        JSON.stringify(v);
        safe[k] = v;
      } catch {
        safe[k] = String(v);
      }
    }
    return JSON.stringify(safe);
  }
}

function statusStyle(status: number | null): Style {
  if (status === null) return 'magenta';
  if (status >= 500) return 'red';
  if (status >= 400) return 'yellow';
  if (status >= 300) return 'cyan';
  return 'green';
}
