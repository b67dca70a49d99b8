/**
 * An eviction's final orders as the simulator's thread hands them to the store's writer thread:
 * each order's fields written into typed arrays whose buffers are transferred, not copied, and
 * turned into rows (order-row.ts) and their text on the writer thread.
 *
 * Why: encoding the rows as JSON on the simulator's thread cost about 1 µs an order, and posting
 * the text copied it once more; a simulated day evicts about 29 million orders, and that was a
 * third of the day. Writing the fields here costs a few typed-array stores and three string
 * copies an order. Strings of few values (an entity, a status, a wallet) are sent once per
 * eviction as a list and named by their index; an order's own ids go as UTF-8 bytes.
 *
 * The writer thread's bundle includes this module (scripts/generate-store-writer.ts), so it
 * imports Node's modules and types only.
 */
import { Buffer } from 'node:buffer';
import type { Order } from '../engine/types.js';
import type { OrderRow } from './order-row.js';

/** createdAt, auctionId, amountCents, updatedAt, filledCents, feeCents, clearing fee, clearedAt, cleared. */
const NUMBERS = 9;
/** entityId, status, orderType, feeBps, postFillAction, sourceWalletId, fiatAccountId: indexes into `words`. */
const WORDS = 7;
/** orderId, parentOrderId, childOrderId: UTF-8 in `text`. */
const TEXTS = 3;
/** A null string (a word index or a text length); a null number is NaN (no order field is NaN). */
const NULL = -1;

/** An eviction's orders, packed (the buffers are transferred to the writer thread). */
export interface PackedOrders {
  count: number;
  /** NUMBERS an order. */
  numbers: Float64Array;
  /** WORDS an order: an index into `words`, or NULL. */
  wordIndexes: Int32Array;
  /** The distinct strings `wordIndexes` names. */
  words: string[];
  /** TEXTS an order: the UTF-8 length of each in `text` (one after the other), or NULL. */
  textLengths: Int32Array;
  text: Uint8Array;
}

/** The buffers to transfer with a pack. */
export const packBuffers = (p: PackedOrders): ArrayBuffer[] =>
  [p.numbers, p.wordIndexes, p.textLengths, p.text].map((a) => a.buffer as ArrayBuffer);

/** Packs `orders` (final orders leaving memory), in their order. */
export function packOrders(orders: readonly Order[]): PackedOrders {
  const count = orders.length;
  const numbers = new Float64Array(count * NUMBERS);
  const wordIndexes = new Int32Array(count * WORDS);
  const textLengths = new Int32Array(count * TEXTS);
  // Not from Buffer's shared pool: the buffer is transferred. Ids are mostly 36 ASCII characters.
  let text = Buffer.allocUnsafeSlow(Math.max(4096, count * TEXTS * 40));
  let end = 0;
  const words: string[] = [];
  const indexOf = new Map<string, number>();
  const word = (s: string | null): number => {
    if (s === null) return NULL;
    let i = indexOf.get(s);
    if (i === undefined) {
      i = words.push(s) - 1;
      indexOf.set(s, i);
    }
    return i;
  };
  const put = (s: string | null, slot: number): void => {
    if (s === null) {
      textLengths[slot] = NULL;
      return;
    }
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    if (end + s.length * 3 > text.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(text.length * 2, end + s.length * 3));
      text.copy(grown, 0, 0, end);
      text = grown;
    }
    const n = text.write(s, end);
    textLengths[slot] = n;
    end += n;
  };
  for (let i = 0; i < count; i++) {
    const o = orders[i] as Order;
    const c = o.clearedIn;
    const at = i * NUMBERS;
    numbers[at] = o.createdAt;
    numbers[at + 1] = o.auctionId;
    numbers[at + 2] = o.amountCents;
    numbers[at + 3] = o.updatedAt;
    numbers[at + 4] = o.filledCents;
    numbers[at + 5] = o.feeCents;
    numbers[at + 6] = c?.clearingFeeCentiBps ?? Number.NaN;
    numbers[at + 7] = c?.clearedAt ?? Number.NaN;
    numbers[at + 8] = c ? 1 : 0;
    const w = i * WORDS;
    wordIndexes[w] = word(o.entityId);
    wordIndexes[w + 1] = word(o.status);
    wordIndexes[w + 2] = word(o.orderType);
    wordIndexes[w + 3] = word(o.feeBps);
    wordIndexes[w + 4] = word(o.postFillAction);
    wordIndexes[w + 5] = word(o.sourceWalletId);
    wordIndexes[w + 6] = word(o.fiatAccountId);
    const t = i * TEXTS;
    put(o.orderId, t);
    put(o.parentOrderId, t + 1);
    put(o.childOrderId, t + 2);
  }
  return { count, numbers, wordIndexes, words, textLengths, text: new Uint8Array(text.buffer, 0, end) };
}

/** A packed eviction's rows by entity, each entity's in pack order (toRow's rows, field for field). */
export function unpackRows(p: PackedOrders): Map<string, OrderRow[]> {
  const { numbers: num, wordIndexes: wi, words, textLengths } = p;
  const text = Buffer.from(p.text.buffer, p.text.byteOffset, p.text.byteLength);
  let start = 0;
  const str = (slot: number): string | null => {
    const n = textLengths[slot] as number;
    if (n === NULL) return null;
    start += n;
    return text.toString('utf8', start - n, start);
  };
  const word = (slot: number): string | null => {
    const i = wi[slot] as number;
    return i === NULL ? null : (words[i] as string);
  };
  const value = (at: number): number | null => {
    const v = num[at] as number;
    return Number.isNaN(v) ? null : v;
  };
  const byEntity = new Map<string, OrderRow[]>();
  for (let i = 0; i < p.count; i++) {
    const at = i * NUMBERS;
    const w = i * WORDS;
    const t = i * TEXTS;
    const orderId = str(t) as string;
    const parentOrderId = str(t + 1);
    const childOrderId = str(t + 2);
    const row = [
      orderId,
      num[at],
      word(w + 1),
      word(w + 2),
      num[at + 1],
      num[at + 2],
      word(w + 3),
      word(w + 4),
      num[at + 3],
      word(w + 5),
      word(w + 6),
      parentOrderId,
      childOrderId,
      num[at + 4],
      num[at + 5],
      value(at + 6),
      value(at + 7),
      num[at + 8],
    ] as OrderRow;
    const entityId = word(w) as string;
    const list = byEntity.get(entityId);
    if (list) list.push(row);
    else byEntity.set(entityId, [row]);
  }
  return byEntity;
}
