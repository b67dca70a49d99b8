/**
 * A cassette as a replay reads it: the recorded answers of each request signature in recorded
 * order, each key's stream connections in the order they opened (their frames as steps to play),
 * and for each step the write it must wait for. Built once from a checked CassetteDocument.
 */
import {
  type CassetteHttp,
  type CassetteJson,
  type CassetteWs,
  requestSignature,
} from '../../contract/cassette.js';
import { WS_PATH } from '../../contract/ws-protocol.js';
import type { CassetteDocument } from '../../simulator/index.js';
import type { RecordedRequest } from './unrecorded.js';

/** The REST path of the ticket call: answered with a replay ticket naming a recorded connection. */
export const TICKET_PATH = `${WS_PATH}/ticket`;

/** One recorded attempt, with its place in the cassette (what a gated frame waits for). */
export interface RecordedAnswer {
  index: number;
  entry: CassetteHttp;
}

/**
 * One step of a recorded connection. `gate`: the cassette index of the last write recorded before
 * it (-1: none), which the replay must have answered before playing the step.
 */
export type ConnectionStep =
  | { kind: 'receive'; frame: CassetteJson; gate: number }
  | { kind: 'send'; frame: CassetteJson }
  | { kind: 'close'; code: number; gate: number; byServer: boolean };

/** One recorded WebSocket connection. */
export interface RecordedConnection {
  /** The recorder's number for it (`connection` of its lines). */
  number: number;
  keyId: string | null;
  steps: ConnectionStep[];
}

const keyOf = (keyId: string | null): string => keyId ?? '-';

function isOp(frame: CassetteJson | undefined, field: 'op' | 'type', value: string): boolean {
  return typeof frame === 'object' && frame !== null && !Array.isArray(frame) && frame[field] === value;
}

/** A write: an exchange that may change the venue (the ticket call only opens a stream). */
function isWrite(entry: CassetteHttp): boolean {
  const method = entry.request.method.toUpperCase();
  return method !== 'GET' && method !== 'HEAD' && entry.request.path !== TICKET_PATH;
}

/**
 * Whether a recorded close was the server's doing. A code other than 1000/1005/1006 can only be
 * the server's (the client's stream ends its sockets with terminate(), seen as 1006 on both
 * sides). For those three the line does not say; the same key's next connection does: a stream
 * that lost its socket resubscribes with `since` (the last seq it saw), a stream newly opened never
 * does. Without such a next connection it was the client's own close.
 */
function closedByServer(close: CassetteWs, index: number, entries: CassetteDocument['entries']): boolean {
  const code = close.code ?? 1006;
  if (code !== 1000 && code !== 1005 && code !== 1006) return true;
  let next: number | undefined;
  for (let i = index + 1; i < entries.length; i++) {
    const line = entries[i];
    if (line?.kind !== 'ws' || line.keyId !== close.keyId || line.connection === close.connection) continue;
    next ??= line.connection;
    if (line.connection !== next) continue;
    if (line.event === 'send' && isOp(line.frame, 'op', 'subscribe') && hasSince(line.frame)) return true;
    if (line.event === 'close') return false;
  }
  return false;
}

function hasSince(frame: CassetteJson | undefined): boolean {
  return typeof frame === 'object' && frame !== null && !Array.isArray(frame) && frame.since !== undefined;
}

/** The cassette, indexed for replay. */
export class CassetteBook {
  /** Recorded answers by request signature, in recorded order. */
  readonly answers = new Map<string, RecordedAnswer[]>();
  /** Each distinct recorded request once, in first-recorded order (the nearest-match search). */
  readonly requests: RecordedRequest[] = [];
  /** Each key's connections in the order they opened (by key id; '-' for none). */
  private readonly connections = new Map<string, RecordedConnection[]>();
  /** The key ids that made a recorded call or opened a recorded connection. */
  readonly keyIds = new Set<string>();

  constructor(
    document: CassetteDocument,
    /** The cassette's file, named by errors. */
    readonly source?: string,
  ) {
    const byNumber = new Map<number, RecordedConnection>();
    let lastWrite = -1;
    document.entries.forEach((entry, index) => {
      if (entry.kind === 'webhook') return;
      if (entry.keyId !== null) this.keyIds.add(entry.keyId);
      if (entry.kind === 'http') {
        const signature = requestSignature(entry.keyId, entry.request);
        let list = this.answers.get(signature);
        if (!list) {
          list = [];
          this.answers.set(signature, list);
          this.requests.push({ keyId: entry.keyId, request: entry.request, signature });
        }
        list.push({ index, entry });
        if (isWrite(entry)) lastWrite = index;
        return;
      }
      let connection = byNumber.get(entry.connection);
      if (!connection) {
        connection = { number: entry.connection, keyId: entry.keyId, steps: [] };
        byNumber.set(entry.connection, connection);
        const list = this.connections.get(keyOf(entry.keyId)) ?? [];
        list.push(connection);
        this.connections.set(keyOf(entry.keyId), list);
      }
      const step = stepOf(entry, lastWrite, index, document.entries);
      if (step) connection.steps.push(step);
    });
  }

  /** The `n`th (from 0) connection `keyId` opened, if the cassette holds one. */
  connection(keyId: string | null, n: number): RecordedConnection | undefined {
    return this.connections.get(keyOf(keyId))?.[n];
  }
}

/**
 * The step a ws line plays, or none: `open` is the handshake itself; the heartbeat (pings the
 * client sent, the pongs it got) is not played, since its timing differs on every run: the
 * replay answers the client's pings whenever they come.
 */
function stepOf(
  line: CassetteWs,
  gate: number,
  index: number,
  entries: CassetteDocument['entries'],
): ConnectionStep | undefined {
  switch (line.event) {
    case 'open':
      return undefined;
    case 'send':
      return isOp(line.frame, 'op', 'ping') ? undefined : { kind: 'send', frame: line.frame ?? null };
    case 'receive':
      return isOp(line.frame, 'type', 'pong')
        ? undefined
        : { kind: 'receive', frame: line.frame ?? null, gate };
    case 'close':
      return { kind: 'close', code: line.code ?? 1006, gate, byServer: closedByServer(line, index, entries) };
  }
}
