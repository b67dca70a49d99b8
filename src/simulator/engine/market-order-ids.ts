/**
 * The background market's order ids: order k of participant `number` in an auction, unique by
 * construction (no two share auction, participant and rank), shaped as UUID v4, ending in the hex
 * of "market". The engine's: `state.orders` looks a market key up in its auction's orders by this
 * shape (order-index.ts), and the market (which makes the ids) and the store (which keeps the few
 * stored ones it may yet make apart) build on the engine.
 */
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** The hex of "market": the last group of every participant order id. */
const ID_TAIL = '6d61726b6574';

/** A lowercase hex digit's value, or -1. */
const hexDigit = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1);

/**
 * The auction whose participant orders may carry `id` (the market makes an auction's ids while it
 * is the current one), or undefined when the market makes no such id: the shape of every
 * participantOrderId, `^([0-9a-f]{8})-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-6d61726b6574$`, the
 * first group its auction (mod 2^32). An auction id past 2^32 (1,360 years of 10 s auctions) would
 * share its ids with another. Matched by hand, position by position: a store asks it of every
 * order that leaves memory, and the regular expression with parseInt took 0.3 ms of each auction
 * on the simulator's thread (profiled, a stored day).
 */
export function marketIdAuction(id: string): number | undefined {
  // Most ids a store evicts are roll children's (hashes): the tail turns them away first.
  if (id.length !== 36 || !id.endsWith(ID_TAIL)) return undefined;
  let auction = 0;
  for (let i = 0; i < 24; i++) {
    const c = id.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return undefined; // -
    } else if (i === 14) {
      if (c !== 0x34) return undefined; // 4
    } else if (i === 19) {
      if (c !== 0x61) return undefined; // a
    } else {
      const h = hexDigit(c);
      if (h < 0) return undefined;
      if (i < 8) auction = auction * 16 + h;
    }
  }
  return auction;
}

/** Whether `id` is one the market may make for `auctionId` or a later auction. */
export function marketIdFrom(id: string, auctionId: number): boolean {
  const auction = marketIdAuction(id);
  return auction !== undefined && auction >= auctionId;
}

/** Order id k of participant `number` in an auction: unique by construction, shaped as UUID v4. */
export function participantOrderId(auctionId: number, number: number, k: number): string {
  return idPrefix(auctionId) + idMiddle(number) + idTail(k);
}

// The id in three parts, by what each depends on: the auction, the participant, the order's rank.
// The population makes the first once per auction, the second once per participant and reads the
// third from a table: formatting every part of every id was 0.15 s of 7.3 s (bench/day.ts, 300 auctions).
export const idPrefix = (auctionId: number) => hex(auctionId >>> 0, 8);
export const idMiddle = (number: number) =>
  `-${hex((number >>> 12) & 0xffff, 4)}-4${hex(number & 0xfff, 3)}-a`;
const ID_TAILS: string[] = [];
export function idTail(k: number): string {
  const i = k & 0xfff;
  let tail = ID_TAILS[i];
  if (tail === undefined) {
    tail = `${hex(i, 3)}-${ID_TAIL}`;
    ID_TAILS[i] = tail;
  }
  return tail;
}
