import { VENUE_CURRENCY } from './money.js';
import type { ClientFrame, ServerFrame } from './ws-protocol.js';

// How frames, and the money inside them, travel as socket text. The venue sends every money value
// on the socket as a bare integer number of cents (`1000` = 10.00 USD), not REST's Money object.
// The simulator's hub encodes and the client's stream decodes with the one table below, so both
// sides agree on which fields are money; consumers always get REST's Money objects.

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

const CENTS_TEXT = /^(\d+)(?:\.(\d{1,2}))?$/;

/** '1000.50' -> 100050, exactly (string and integer operations, no float math). */
function centsOf(amount: string): number | undefined {
  const m = CENTS_TEXT.exec(amount);
  if (!m) return undefined;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) && (m[1] as string).length <= 16 ? cents : undefined;
}

/** 100050 -> '1000.50'. */
function amountOf(cents: number): string {
  const text = String(cents).padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
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
      const cents = typeof money.amount === 'string' ? centsOf(money.amount) : undefined;
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
      return { amount: amountOf(value), currency: VENUE_CURRENCY };
    },
    true,
    'data',
  );
}

/**
 * Socket text -> a server frame; undefined when it is JSON but not an object. Throws (SyntaxError)
 * when the text is not JSON. Fields are not checked: the client ignores frame types it does not
 * know and passes unknown event kinds through.
 */
export function parseServerFrame(text: string): ServerFrame | undefined {
  const frame: unknown = JSON.parse(text);
  return typeof frame === 'object' && frame !== null ? (frame as ServerFrame) : undefined;
}

/** A client frame -> socket text. */
export function serializeClientFrame(frame: ClientFrame): string {
  return JSON.stringify(frame);
}
