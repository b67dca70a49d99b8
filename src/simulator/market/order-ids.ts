/**
 * The background market's order ids: order k of participant `number` in an auction, unique by
 * construction (no two share auction, participant and rank), shaped as UUID v4, ending in the hex
 * of "market".
 */
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** The hex of "market": the last group of every participant order id. */
const ID_TAIL = '6d61726b6574';

/** The shape of every participantOrderId; the first group is its auction (mod 2^32). */
const MARKET_ID = /^([0-9a-f]{8})-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-6d61726b6574$/;

/**
 * The auction whose participant orders may carry `id` (the market makes an auction's ids while it
 * is the current one), or undefined when the market makes no such id. An auction id past 2^32
 * (1,360 years of 10 s auctions) would share its ids with another.
 */
export function marketIdAuction(id: string): number | undefined {
  // Most ids a store evicts are roll children's (hashes): the tail turns them away first.
  if (!id.endsWith(ID_TAIL)) return undefined;
  const m = MARKET_ID.exec(id);
  return m ? Number.parseInt(m[1] as string, 16) : undefined;
}

/**
 * Whether `id` is one the market may make for `auctionId` or a later auction (marketIdAuction's
 * answer compared, its pattern matched only for ids that name such an auction: most are the
 * market's own, of past auctions).
 */
export function marketIdFrom(id: string, auctionId: number): boolean {
  if (!id.endsWith(ID_TAIL) || !(Number.parseInt(id.slice(0, 8), 16) >= auctionId)) return false;
  return (marketIdAuction(id) as number | undefined) !== undefined;
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
