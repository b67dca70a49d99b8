import { formatHundredths, parseHundredths, VENUE_CURRENCY } from './money.js';
import {
  type Channel,
  type ClientFrame,
  type ErrorFrame,
  type ErrorFrameCode,
  type EventFrame,
  type FrameId,
  type HelloFrame,
  isFrameId,
  type PongFrame,
  type ServerFrame,
  type SubscribedFrame,
  type SubscribeFrame,
  type UnsubscribedFrame,
} from './ws-protocol.js';

// How frames, and the money inside them, travel as socket text, in both directions: the client's
// stream encodes client frames and decodes server frames, the simulator's hub decodes client frames
// and encodes server frames, all here, so a frame change is this file and ws-protocol.ts. Decoding
// is a pure function of the text (connection state stays with the hub and the stream) and fails
// with a typed FrameError, never a throw.
//
// The venue sends every money value on the socket as a bare integer number of cents (`1000` = 10.00
// USD), not REST's Money object. The hub encodes and the stream decodes with the one table below,
// so both sides agree on which fields are money; consumers always get REST's Money objects.

/** The payload an event kind carries (its `data`). */
export type SocketPayload = 'order' | 'withdrawal' | 'account' | 'auction' | 'snapshot';

/** Event kind -> payload. A kind not listed (a newer venue's) is passed through undecoded. */
export const SOCKET_EVENT_PAYLOADS: ReadonlyMap<string, SocketPayload> = new Map<string, SocketPayload>([
  ['order.accepted', 'order'],
  ['order.updated', 'order'],
  ['withdrawal.updated', 'withdrawal'],
  ['balance.updated', 'account'],
  ['auction.opened', 'auction'],
  ['auction.locked', 'auction'],
  ['auction.cleared', 'auction'],
  ['auction.settled', 'auction'],
  ['auction.snapshot', 'snapshot'],
]);

/**
 * Every money field of every payload, as a dotted path in `data`. The paths of order and account
 * are the Money fields of the openapi schemas Order and AccountSummary, and every path holds Money
 * in what the simulator publishes: test/contract/ws-codec.test.ts checks both, so a new money
 * field cannot travel unconverted.
 */
export const SOCKET_MONEY_FIELDS: Readonly<Record<SocketPayload, readonly string[]>> = {
  order: ['amount', 'fill.filledAmount', 'fill.unfilledAmount'],
  withdrawal: ['amount'],
  account: [
    'stablecoin.available',
    'stablecoin.reserved',
    'stablecoin.total',
    'activity.totalMatched',
    'activity.rebatesEarned',
    'activity.feesPaid',
  ],
  auction: ['matchedVolume', 'lastClear.matchedVolume'],
  snapshot: ['auction.matchedVolume', 'settling.matchedVolume', 'lastClear.matchedVolume'],
};

/** The table as a tree per payload (`{fill: {filledAmount: true, ...}}`): each object visited once. */
interface Tree {
  [key: string]: Tree | true;
}

function treeOf(paths: readonly string[]): Tree {
  const root: Tree = {};
  for (const path of paths) {
    const keys = path.split('.');
    const leaf = keys.pop() as string;
    let node = root;
    for (const key of keys) {
      const child = node[key];
      if (child === undefined || child === true) node[key] = {};
      node = node[key] as Tree;
    }
    node[leaf] = true;
  }
  return root;
}

const TREES = new Map<SocketPayload, Tree>(
  Object.entries(SOCKET_MONEY_FIELDS).map(([payload, paths]) => [payload as SocketPayload, treeOf(paths)]),
);

/**
 * A socket frame whose money field is not what the protocol allows: the client cannot decode it.
 * `path` is the field in the frame (`data.fill.filledAmount`), `event` the frame's event kind.
 */
export class SocketMoneyError extends RangeError {
  override readonly name = 'SocketMoneyError';
  readonly code = 'socket_money_invalid';
  constructor(
    readonly event: string,
    readonly path: string,
    readonly value: unknown,
  ) {
    super(
      `${event}: ${path} must be a non-negative integer number of cents (socket money), got ${describe(value)}`,
    );
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = typeof value === 'number' ? String(value) : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

type Obj = Record<string, unknown>;

function isPlainObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Applies `convert` to the value at each leaf of `tree` in `obj`: in a copy (shallow copies along
 * the tree only) or, `inPlace`, in `obj` itself. A value or parent that is null or absent is
 * skipped: `fill` is null until an order is matched, `settling` and `lastClear` until an auction
 * clears. `at` is the dotted path of `obj` in `data`, for error messages.
 */
function mapTree(
  obj: Obj,
  tree: Tree,
  convert: (value: unknown, path: string) => unknown,
  inPlace: boolean,
  at: string,
): Obj {
  const out = inPlace ? obj : { ...obj };
  for (const key in tree) {
    const value = out[key];
    if (value === null || value === undefined) continue;
    const sub = tree[key] as Tree | true;
    if (sub === true) out[key] = convert(value, `${at}.${key}`);
    else if (isPlainObject(value)) out[key] = mapTree(value, sub, convert, inPlace, `${at}.${key}`);
  }
  return out;
}

/**
 * REST wire JSON -> socket wire JSON (the simulator's side): every money field of the event's
 * payload becomes integer cents. Throws on a Money that cannot travel (not USD, sub-cent, negative):
 * the simulator never makes one, so that is a bug to hear about, not a frame to send.
 */
export function encodeSocketEvent(event: string, data: unknown): unknown {
  const payload = SOCKET_EVENT_PAYLOADS.get(event);
  if (payload === undefined || !isPlainObject(data)) return data;
  // A copy: the simulator's event data is shared with its other listeners (webhooks, the CLI).
  return mapTree(
    data,
    TREES.get(payload) as Tree,
    (value, path) => {
      const money = value as { amount?: unknown; currency?: unknown };
      const cents = parseHundredths(money.amount);
      if (cents === undefined || money.currency !== VENUE_CURRENCY) {
        throw new RangeError(`${event}: ${path} cannot travel as socket cents: ${describe(value)}`);
      }
      return cents;
    },
    false,
    'data',
  );
}

/**
 * Socket wire JSON -> REST wire JSON (the client's side): every money field of the event's payload,
 * integer cents on the socket, becomes REST's Money (`{amount: '10.00', currency: 'USD'}`; the
 * socket carries no currency and the venue has one). Converts in place, so `data` must be the
 * caller's own (the client's fresh parse of the frame), and returns it. Throws SocketMoneyError on
 * a value that is not a non-negative safe integer (`10.5`, `"1000"`, a Money object), leaving
 * `data` part-converted; an unknown event kind is returned untouched.
 */
export function decodeSocketEvent(event: string, data: unknown): unknown {
  const payload = SOCKET_EVENT_PAYLOADS.get(event);
  if (payload === undefined || !isPlainObject(data)) return data;
  return mapTree(
    data,
    TREES.get(payload) as Tree,
    (value, path) => {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
        throw new SocketMoneyError(event, path, value);
      }
      return { amount: formatHundredths(value), currency: VENUE_CURRENCY };
    },
    true,
    'data',
  );
}

/** Why a frame's text is not a frame: the code and message of the error frame that says so. */
export interface FrameError {
  code: ErrorFrameCode;
  message: string;
  /** The frame's `id`, when it had a valid one (the server echoes it). */
  id?: FrameId;
}

/** A decoded frame, or why the text is none. */
export type Decoded<F> = { ok: true; frame: F } | { ok: false; error: FrameError };

const fail = (code: ErrorFrameCode, message: string, id?: FrameId): { ok: false; error: FrameError } => ({
  ok: false,
  error: id === undefined ? { code, message } : { code, message, id },
});

/** JSON text -> an object, or the error of text that is not JSON or not a JSON object. */
function parseObject(text: string | undefined): Decoded<Obj> {
  // A binary message (the server's `ws` hands it over as bytes, not text).
  if (text === undefined) return fail('invalid_frame', 'frames must be JSON text');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('invalid_json', 'frame is not valid JSON');
  }
  return isPlainObject(value)
    ? { ok: true, frame: value }
    : fail('invalid_frame', 'frame must be a JSON object');
}

/** A client frame -> socket text (the client's side). */
export function encodeClientFrame(frame: ClientFrame): string {
  return JSON.stringify(frame);
}

/**
 * Socket text -> a client frame (the simulator's side); `undefined` for a binary message. Checked
 * in the order of docs/PROTOCOL.md's error codes; a failure carries the frame's `id` once it is
 * known to be valid, for the error frame to echo.
 */
export function decodeClientFrame(text: string | undefined): Decoded<ClientFrame> {
  const parsed = parseObject(text);
  if (!parsed.ok) return parsed;
  const raw = parsed.frame;
  const id = isFrameId(raw.id) ? raw.id : undefined;
  if (raw.id !== undefined && id === undefined) {
    return fail('invalid_frame', 'id must be a number or a string of at most 64 characters');
  }
  const op = raw.op;
  if (op === 'ping') return { ok: true, frame: id === undefined ? { op } : { op, id } };
  if (op !== 'subscribe' && op !== 'unsubscribe') {
    return fail('unknown_op', 'op must be one of subscribe, unsubscribe, ping', id);
  }
  const channel = raw.channel;
  if (channel !== 'market' && channel !== 'account') {
    return fail('invalid_channel', 'channel must be market or account', id);
  }
  if (op === 'unsubscribe') {
    return { ok: true, frame: id === undefined ? { op, channel } : { op, channel, id } };
  }
  const since = raw.since;
  if (since !== undefined && !(typeof since === 'number' && Number.isSafeInteger(since) && since >= 0)) {
    return fail('invalid_since', 'since must be a non-negative integer', id);
  }
  const frame: SubscribeFrame = { op, channel };
  if (id !== undefined) frame.id = id;
  if (since !== undefined) frame.since = since;
  return { ok: true, frame };
}

/**
 * Socket text -> a server frame (the client's side). Fields are not checked: the client ignores
 * frame types it does not know and passes unknown event kinds through; an event's money is decoded
 * apart (decodeSocketEvent), once the stream knows the event is not a duplicate.
 */
export function decodeServerFrame(text: string): Decoded<ServerFrame> {
  return parseObject(text) as Decoded<ServerFrame>;
}

// Server frames -> socket text (the simulator's side). Times are epoch milliseconds; an optional
// field is left out when undefined, and the keys keep the order docs/PROTOCOL.md shows.

const iso = (at: number): string => new Date(at).toISOString();

/** The server's first frame; `heartbeatMs` 0 (no pings) is left out. */
export function encodeHello(protocol: string, at: number, heartbeatMs: number): string {
  const frame: HelloFrame = { type: 'hello', protocol, ts: iso(at) };
  if (heartbeatMs > 0) frame.heartbeatMs = heartbeatMs;
  return JSON.stringify(frame);
}

/** The answer to a subscribe; `replay` is set exactly when the client sent `since`. */
export function encodeSubscribed(answer: {
  channel: Channel;
  id: FrameId | undefined;
  seq: number;
  at: number;
  since: number | undefined;
  replay: 'ok' | 'unavailable' | undefined;
}): string {
  const frame: SubscribedFrame = {
    type: 'subscribed',
    channel: answer.channel,
    seq: answer.seq,
    ts: iso(answer.at),
  };
  if (answer.id !== undefined) frame.id = answer.id;
  if (answer.since !== undefined) {
    frame.since = answer.since;
    if (answer.replay !== undefined) frame.replay = answer.replay;
  }
  return JSON.stringify(frame);
}

export function encodeUnsubscribed(channel: Channel, id: FrameId | undefined): string {
  const frame: UnsubscribedFrame = { type: 'unsubscribed', channel };
  if (id !== undefined) frame.id = id;
  return JSON.stringify(frame);
}

export function encodePong(id: FrameId | undefined, at: number): string {
  const frame: PongFrame = { type: 'pong', ts: iso(at) };
  if (id !== undefined) frame.id = id;
  return JSON.stringify(frame);
}

/** The error frame of a client frame decodeClientFrame refused. */
export function encodeError(error: FrameError): string {
  const frame: ErrorFrame = { type: 'error', code: error.code, message: error.message };
  if (error.id !== undefined) frame.id = error.id;
  return JSON.stringify(frame);
}

/**
 * An event frame: `data` is REST wire JSON, its money encoded as socket cents (encodeSocketEvent,
 * which throws on money that cannot travel). Built once per event, however many sockets get it.
 */
export function encodeEvent(channel: Channel, seq: number, event: string, data: unknown, at: number): string {
  const frame: EventFrame = {
    type: 'event',
    channel,
    seq,
    event,
    data: encodeSocketEvent(event, data),
    ts: iso(at),
  };
  return JSON.stringify(frame);
}
