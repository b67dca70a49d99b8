import type * as NodeFs from 'node:fs';
import type * as NodePath from 'node:path';
import { CASSETTE_FORMAT, CASSETTE_VERSION, cassetteHeader } from '../contract/cassette.js';
import { VERSION } from '../generated/version.js';

// The file a recording appends to (docs/CASSETTES.md, Recording). One writer per resolved path in
// the process, whoever asks (clients, a webhook receiver, a second copy of the SDK loaded as
// CommonJS beside the ES module build): the header is written once, and connection numbers are
// unique in the file. Each line is one synchronous append, so lines never interleave and a line is
// on disk before the exchange it records is handed back to the caller.

/** The SDK that starts a cassette, as its header names it. */
export const CASSETTE_SDK = `match-venue-node/${VERSION}`;

/** One cassette file, shared by everything in the process that records to it. */
export interface CassetteWriter {
  /** The file, as the caller named it (for messages). */
  readonly file: string;
  /** Appends one line (a JSON text without its newline). Throws what the file system throws. */
  append(line: string): void;
  /** The next WebSocket connection number of this file, from 1. */
  nextConnection(): number;
}

interface NodeModules {
  fs: typeof NodeFs;
  path: typeof NodePath;
}

// On globalThis rather than in this module, so that two loaded copies of the SDK share it.
const REGISTRY = Symbol.for('match-venue.cassette-writers');

function registry(): Map<string, CassetteWriter> {
  const global = globalThis as { [REGISTRY]?: Map<string, CassetteWriter> };
  global[REGISTRY] ??= new Map();
  return global[REGISTRY];
}

/**
 * `node:fs` and `node:path`, looked up at run time: a static import would stop the main entry from
 * loading in a browser or an edge worker, where nothing records.
 */
function nodeModules(): NodeModules | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const fs = proc?.getBuiltinModule?.('node:fs') as typeof NodeFs | undefined;
    const path = proc?.getBuiltinModule?.('node:path') as typeof NodePath | undefined;
    return fs && path ? { fs, path } : undefined;
  } catch {
    return undefined;
  }
}

const FIRST_LINE_MAX = 64 * 1024;

/** The first line of an open file (at most 64 KiB of it) and whether the file ends with a newline. */
function readEnds(fs: typeof NodeFs, fd: number, size: number): { first: string; endsWell: boolean } {
  const head = new Uint8Array(Math.min(size, FIRST_LINE_MAX));
  fs.readSync(fd, head, 0, head.length, 0);
  const text = new TextDecoder().decode(head);
  const end = text.indexOf('\n');
  const last = new Uint8Array(1);
  fs.readSync(fd, last, 0, 1, size - 1);
  return { first: end === -1 ? text : text.slice(0, end), endsWell: last[0] === 0x0a };
}

/** The first line parsed, or undefined when it is not JSON (then it is not a cassette). */
function firstValue(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * Why an existing cassette cannot be continued, or undefined when it can: this format and version,
 * and a last line that ended (a recorder killed mid-write leaves one cut short, which would join the
 * next line and spoil both).
 */
function refusal(first: string, endsWell: boolean): string | undefined {
  const head = firstValue(first) as { format?: unknown; version?: unknown } | null | undefined;
  if (head === null || typeof head !== 'object' || head.format !== CASSETTE_FORMAT)
    return `the file is not a cassette (its first line is not a {"format":"${CASSETTE_FORMAT}"} header)`;
  if (head.version !== CASSETTE_VERSION)
    return `the file is a cassette of version ${JSON.stringify(head.version)}; this SDK writes cassette version ${CASSETTE_VERSION}: record to a new file`;
  if (!endsWell) return 'the file ends in a line cut short (was its recording process killed mid-write?)';
  return undefined;
}

/**
 * The writer of `file`: the process's existing one, or a new one that checked the file (a new or
 * empty file gets the header line; an existing one must be a cassette of this version). Calls
 * `refuse` with the reason and throws what it returns when recording is impossible: no file system
 * (recording is Node only), a file of another format or version, a file that cannot be written.
 */
export function cassetteWriter(file: string, refuse: (message: string) => Error): CassetteWriter {
  const node = nodeModules();
  if (!node)
    throw refuse(
      `recording to ${file} needs a file system: record is Node only (this runtime has no process.getBuiltinModule('node:fs'))`,
    );
  const { fs, path } = node;
  const resolved = path.resolve(file);
  const writers = registry();
  const known = writers.get(resolved);
  if (known) return known;
  let reason: string | undefined;
  try {
    const fd = fs.openSync(resolved, 'a+');
    try {
      const size = fs.fstatSync(fd).size;
      if (size === 0) fs.writeSync(fd, `${JSON.stringify(cassetteHeader(CASSETTE_SDK, new Date()))}\n`);
      else {
        const { first, endsWell } = readEnds(fs, fd, size);
        reason = refusal(first, endsWell);
      }
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    reason = err instanceof Error ? err.message : String(err);
  }
  if (reason !== undefined) throw refuse(`cannot record to ${file}: ${reason}`);
  let connections = 0;
  const writer: CassetteWriter = {
    file,
    append: (line) => fs.appendFileSync(resolved, `${line}\n`),
    nextConnection: () => ++connections,
  };
  writers.set(resolved, writer);
  return writer;
}
