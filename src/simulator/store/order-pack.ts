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
 * The writer thread's built file (dist/simulator/store-writer.js, tsup.config.ts) carries this
 * module, so it imports Node's modules and types only: the thread loads nothing it does not run.
 */
import { Buffer } from 'node:buffer';
import type { Order } from '../engine/types.js';
import { asciiHashes, hashes } from './id-filter.js';
import { groupByEntity } from '../engine/group-by.js';
import type { OrderRow } from './order-row.js';

/**
 * createdAt, auctionId, amountCents, updatedAt, filledCents, feeCents, clearing fee, clearedAt,
 * cleared, placed limit.
 */
const NUMBERS = 10;
/** entityId, status, orderType, feeBps, postFillAction, sourceWalletId, fiatAccountId: indexes into `words`. */
const WORDS = 7;
/** orderId, parentOrderId, childOrderId: UTF-8 in `text`. */
const TEXTS = 3;
/** A null string (a word index or a text length); a null number is NaN (no order field is NaN). */
const NULL = -1;

/**
 * A text's length slot: its UTF-8 length, NULL, or for a string that is not well-formed UTF-16 (a
 * lone surrogate, which UTF-8 would replace) -2 minus its UTF-16 length in bytes, so that every
 * id comes back as it was.
 */
const textBytes = (slot: number): number => (slot >= 0 ? slot : slot === NULL ? 0 : -slot - 2);
const decodeText = (text: Buffer, start: number, slot: number): string =>
  slot >= 0
    ? text.toString('utf8', start, start + slot)
    : text.toString('utf16le', start, start + textBytes(slot));
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/** An eviction's orders, packed (the buffers are transferred to the writer thread). */
export interface PackedOrders {
  count: number;
  /** NUMBERS an order. */
  numbers: Float64Array;
  /** WORDS an order: an index into `words`, or NULL. */
  wordIndexes: Int32Array;
  /** The distinct strings `wordIndexes` names. */
  words: string[];
  /** TEXTS an order: the length slot of each in `text` (one after the other; textBytes). */
  textLengths: Int32Array;
  text: Uint8Array;
  /**
   * Where each entity's orders start (they are packed entity by entity), then `count`: an entity's
   * chunk is then slices of the arrays, not an order-by-order gather (entityChunks).
   */
  runs: Int32Array;
}

/** The buffers to transfer with a pack. */
export const packBuffers = (p: PackedOrders): ArrayBuffer[] =>
  [p.numbers, p.wordIndexes, p.textLengths, p.text, p.runs].map((a) => a.buffer as ArrayBuffer);

/**
 * Packs `orders` (final orders leaving memory) entity by entity, the entities in the order they
 * first come, each entity's orders in their order: `groups`, when the caller has them.
 */
export function packOrders(
  orders: readonly Order[],
  groups: ReadonlyMap<string, readonly Order[]> = groupByEntity(orders),
): PackedOrders {
  const count = orders.length;
  const runs = new Int32Array(groups.size + 1);
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
    if (wellFormed(s)) {
      const n = text.write(s, end);
      textLengths[slot] = n;
      end += n;
    } else {
      const n = text.write(s, end, 'utf16le');
      textLengths[slot] = -n - 2;
      end += n;
    }
  };
  let i = 0;
  let r = 0;
  for (const [entityId, list] of groups) {
    runs[r++] = i;
    const entityWord = word(entityId);
    for (const o of list) {
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
      numbers[at + 9] = o.placedLimitCentiBps ?? Number.NaN;
      const w = i * WORDS;
      wordIndexes[w] = entityWord;
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
      i++;
    }
  }
  runs[r] = count;
  return {
    count,
    numbers,
    wordIndexes,
    words,
    textLengths,
    text: new Uint8Array(text.buffer, 0, end),
    runs,
  };
}

/** One entity's orders of an eviction as the file keeps them (a chunk, order-store.ts). */
export interface EntityChunk {
  entityId: string;
  /** The least and greatest createdAt. */
  firstAt: number;
  lastAt: number;
  /** Its orders' ids' `hashes` (id-filter.ts), a pair an order, in the chunk's order. */
  idHashes: Uint32Array;
  /** chunkRows reads them back. */
  bytes: Uint8Array;
}

// A chunk's bytes: a header of four u32 (count, words' JSON length, text length, 0), then the
// pack's arrays for its orders (numbers first: 8-byte aligned), the words it names as JSON, and
// their text. Native byte order, as the id filter's saved bits. Not JSON rows: encoding 20,000
// orders as JSON was most of the writer thread's time (a stored day is bound by it).
const HEADER = 16;

/** Where a chunk of `count` orders has each part (its words' JSON, then their text, follow). */
function chunkLayout(count: number) {
  const numbersAt = HEADER;
  const indexesAt = numbersAt + count * NUMBERS * 8;
  const lengthsAt = indexesAt + count * WORDS * 4;
  return { numbersAt, indexesAt, lengthsAt, wordTextAt: lengthsAt + count * TEXTS * 4 };
}
/** Not yet named by the chunk being built (entityChunks' word map). */
const UNSEEN = -2;

/** A packed eviction's orders by entity, each entity's in pack order, as chunk bytes. */
export function entityChunks(p: PackedOrders): EntityChunk[] {
  const { numbers: num, wordIndexes: wi, textLengths: tl, text, runs } = p;
  const textBuffer = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  // The pack's word index -> the chunk's, for the chunk being built (reset after each).
  const local = new Int32Array(p.words.length).fill(UNSEEN);
  const chunks: EntityChunk[] = [];
  let textStart = 0;
  for (let r = 0; r + 1 < runs.length; r++) {
    const start = runs[r] as number;
    const end = runs[r + 1] as number;
    const count = end - start;
    // The chunk's words, as the pack's indexes, in the order its orders first name them.
    const named: number[] = [];
    const indexes = new Int32Array(count * WORDS);
    for (let k = 0; k < count * WORDS; k++) {
      const g = wi[start * WORDS + k] as number;
      if (g === NULL) indexes[k] = NULL;
      else {
        if (local[g] === UNSEEN) local[g] = named.push(g) - 1;
        indexes[k] = local[g] as number;
      }
    }
    for (const g of named) local[g] = UNSEEN;
    // Ids are hashed from their bytes as the texts are walked; the chunk takes the run's text whole.
    const idHashes = new Uint32Array(count * 2);
    let firstAt = Number.POSITIVE_INFINITY;
    let lastAt = Number.NEGATIVE_INFINITY;
    let at = textStart;
    for (let i = start; i < end; i++) {
      const createdAt = num[i * NUMBERS] as number;
      if (createdAt < firstAt) firstAt = createdAt;
      if (createdAt > lastAt) lastAt = createdAt;
      // The order's id is its first text (never null).
      const slot = tl[i * TEXTS] as number;
      const idEnd = at + textBytes(slot);
      const [h1, h2] =
        (slot >= 0 ? asciiHashes(text, at, idEnd) : undefined) ?? hashes(decodeText(textBuffer, at, slot));
      idHashes[2 * (i - start)] = h1;
      idHashes[2 * (i - start) + 1] = h2;
      for (let t = i * TEXTS; t < (i + 1) * TEXTS; t++) at += textBytes(tl[t] as number);
    }
    const wordText = Buffer.from(JSON.stringify(named.map((g) => p.words[g])));
    const { numbersAt, indexesAt, lengthsAt, wordTextAt } = chunkLayout(count);
    const textAt = wordTextAt + wordText.length;
    const bytes = new Uint8Array(textAt + at - textStart);
    new Uint32Array(bytes.buffer, 0, 4).set([count, wordText.length, at - textStart, 0]);
    const slice = (a: Float64Array | Int32Array, from: number, n: number) =>
      new Uint8Array(a.buffer, a.byteOffset + from * a.BYTES_PER_ELEMENT, n * a.BYTES_PER_ELEMENT);
    bytes.set(slice(num, start * NUMBERS, count * NUMBERS), numbersAt);
    bytes.set(new Uint8Array(indexes.buffer), indexesAt);
    bytes.set(slice(tl, start * TEXTS, count * TEXTS), lengthsAt);
    bytes.set(wordText, wordTextAt);
    bytes.set(text.subarray(textStart, at), textAt);
    textStart = at;
    chunks.push({
      entityId: p.words[wi[start * WORDS] as number] as string,
      firstAt,
      lastAt,
      idHashes,
      bytes,
    });
  }
  return chunks;
}

/** A chunk's rows (toRow's, field for field), in its order. */
export function chunkRows(blob: Uint8Array): OrderRow[] {
  // Copied: a blob's bytes need not be aligned for a Float64Array.
  const bytes = new Uint8Array(blob.byteLength);
  bytes.set(blob);
  const [count = 0, wordBytes = 0] = new Uint32Array(bytes.buffer, 0, 2);
  const { numbersAt, indexesAt, lengthsAt, wordTextAt } = chunkLayout(count);
  const view = Buffer.from(bytes.buffer);
  return rows({
    count,
    numbers: new Float64Array(bytes.buffer, numbersAt, count * NUMBERS),
    wordIndexes: new Int32Array(bytes.buffer, indexesAt, count * WORDS),
    words: JSON.parse(view.toString('utf8', wordTextAt, wordTextAt + wordBytes)) as string[],
    textLengths: new Int32Array(bytes.buffer, lengthsAt, count * TEXTS),
    text: bytes.subarray(wordTextAt + wordBytes),
  });
}

/** A pack's rows, in its order. */
function rows(p: Omit<PackedOrders, 'runs'>): OrderRow[] {
  const { numbers: num, wordIndexes: wi, words, textLengths } = p;
  const text = Buffer.from(p.text.buffer, p.text.byteOffset, p.text.byteLength);
  let start = 0;
  const str = (slot: number): string | null => {
    const n = textLengths[slot] as number;
    if (n === NULL) return null;
    start += textBytes(n);
    return decodeText(text, start - textBytes(n), n);
  };
  const word = (slot: number): string | null => {
    const i = wi[slot] as number;
    return i === NULL ? null : (words[i] as string);
  };
  const value = (at: number): number | null => {
    const v = num[at] as number;
    return Number.isNaN(v) ? null : v;
  };
  const out: OrderRow[] = [];
  for (let i = 0; i < p.count; i++) {
    const at = i * NUMBERS;
    const w = i * WORDS;
    const t = i * TEXTS;
    const orderId = str(t) as string;
    const parentOrderId = str(t + 1);
    const childOrderId = str(t + 2);
    out.push([
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
      value(at + 9),
    ] as OrderRow);
  }
  return out;
}
