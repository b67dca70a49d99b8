/**
 * Reading a cassette: the header, then each line checked whole, before a replay or a probe uses any
 * of it. A mistake is a CassetteError naming the source, the line, the path and the rule: a
 * cassette of another version, a line cut short (a recorder killed mid-write), a line of the wrong
 * shape. Node's file system is loaded only by readCassette.
 */
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type CassetteEntry,
  type CassetteHeader,
} from '../../contract/cassette.js';
import { MatchVenueError } from '../../contract/base-error.js';
import { formatPath } from '../scenario/check.js';
import { CassetteEntrySchema, CassetteHeaderSchema } from './schema.js';

/** A cassette that cannot be used: where (line, path) and the rule broken. */
export class CassetteError extends MatchVenueError {
  static override readonly kind = 'SIM_CASSETTE_INVALID';
  /** Always `CassetteError`. */
  override name = 'CassetteError';
  constructor(
    /** The line, from 1 (0: the file itself). */
    readonly line: number,
    /** The rule broken, with the path inside the line when there is one. */
    readonly rule: string,
    /** The file (or other source), when known. */
    readonly source?: string,
  ) {
    super(`${source ?? 'cassette'}${line > 0 ? `, line ${line}` : ''}: ${rule}`);
  }
}

/** A cassette, checked: its header and its exchanges in the order they were written. */
export interface CassetteDocument {
  /** The header line. */
  header: CassetteHeader;
  /** Every line after it, in file order. */
  entries: CassetteEntry[];
}

function firstIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'is invalid';
  const path = formatPath(issue.path);
  return `${path ? `${path} ` : ''}${issue.message}`;
}

/** Parses and checks NDJSON cassette text; throws CassetteError. */
export function parseCassette(text: string, source?: string): CassetteDocument {
  const fail = (line: number, rule: string): never => {
    throw new CassetteError(line, rule, source);
  };
  const lines = text.split('\n');
  // A file ends with a newline; a last line without one was cut short, unless it is whole JSON.
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0)
    fail(0, `is empty: a cassette starts with its header line (format "${CASSETTE_FORMAT}")`);
  const values = lines.map((line, i) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      const last = i === lines.length - 1;
      return fail(
        i + 1,
        last
          ? 'is not complete JSON: the line was cut short (was the recording process killed mid-write?)'
          : 'is not a JSON object: each line of a cassette is one JSON object',
      );
    }
  });
  const head = values[0] as { format?: unknown; version?: unknown } | null;
  if (head === null || typeof head !== 'object' || head.format !== CASSETTE_FORMAT)
    fail(1, `must be the header line {"kind":"cassette","format":"${CASSETTE_FORMAT}",...}`);
  if (head?.version !== CASSETTE_VERSION)
    fail(
      1,
      `version ${JSON.stringify(head?.version)} is not supported: this SDK reads cassette version ${CASSETTE_VERSION}`,
    );
  const header = CassetteHeaderSchema.safeParse(head);
  if (!header.success) return fail(1, firstIssue(header.error));
  const entries: CassetteEntry[] = [];
  for (let i = 1; i < values.length; i++) {
    const entry = CassetteEntrySchema.safeParse(values[i]);
    if (!entry.success) return fail(i + 1, firstIssue(entry.error));
    entries.push(entry.data);
  }
  return { header: header.data, entries };
}

/** The cassette in `file`, read and checked (CassetteError names the file). */
export async function readCassette(file: string): Promise<CassetteDocument> {
  let text: string;
  try {
    const { readFile } = await import('node:fs/promises');
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new CassetteError(0, `cannot be read (${err instanceof Error ? err.message : err})`, file);
  }
  return parseCassette(text, file);
}
