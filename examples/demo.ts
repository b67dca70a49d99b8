/**
 * `npm run demo`: three auctions against the embedded simulator on a short real clock. A burner
 * and a minter place orders, the auction locks and clears, and the fills, fees and balances are
 * printed as tables. Market events arrive over the WebSocket stream. The minter is the mint side:
 * it starts prefunded with venue-only stablecoin, its MINT orders draw on that balance and its
 * fills pay ordinary stablecoin (plus the rebate) into its wallet; the burner sells from its wallet.
 *   npm run demo
 *   MATCH_VENUE_BASE_URL=http://127.0.0.1:4010 npm run demo   (a running `npx match-venue-sim`)
 */
import { formatMoney, isEvent, MatchVenue, type Money, type Orders, usd } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { printTable } from './support/table.js';

const AUCTIONS = 3;

const remote = process.env.MATCH_VENUE_BASE_URL;
const sim = remote
  ? undefined
  : createSimulator({ clock: 'real', cycleMs: 4_000, lockMs: 1_200, settleMs: 600 });
const running = sim ? await sim.listen() : undefined;
const baseUrl = running?.url ?? remote ?? '';

const burner = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl });
const minter = new MatchVenue({ apiKey: SEEDED.minter.apiKey, baseUrl });

// Each auction gets a slightly different book so the clearing fee moves.
function book(round: number) {
  const burns = [
    { amount: '3000', feeBps: String(6 + round) },
    { amount: '2000', feeBps: '4' },
    { amount: '1000', feeBps: null },
  ];
  const mints = [
    { amount: '2500', feeBps: '2' },
    { amount: String(1500 + 500 * round), feeBps: String(3 + round) },
  ];
  return { burns, mints };
}

// Orders placed but not yet reported, by the auction each one landed in.
const unreported = new Map<number, { id: string; owner: MatchVenue }[]>();

function track(auctionId: number, order: { id: string; owner: MatchVenue }): void {
  const list = unreported.get(auctionId) ?? [];
  list.push(order);
  unreported.set(auctionId, list);
}

async function placeBook(round: number): Promise<void> {
  const { burns, mints } = book(round);
  const auctions = new Set<number>();
  for (const b of burns) {
    const r = await burner.orders.place({
      orderType: 'BURN',
      amount: usd(b.amount),
      feeBps: b.feeBps,
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    track(r.auctionId, { id: r.orderId, owner: burner });
    auctions.add(r.auctionId);
  }
  for (const m of mints) {
    const r = await minter.orders.place({
      orderType: 'MINT',
      amount: usd(m.amount),
      feeBps: m.feeBps,
      postFillAction: 'cancel',
    });
    track(r.auctionId, { id: r.orderId, owner: minter });
    auctions.add(r.auctionId);
  }
  console.log(`\n▶ auction ${[...auctions].join(' and ')} open: orders placed`);
  printTable([
    ...burns.map((b) => ({
      side: 'BURN (pays ≤)',
      amount: formatMoney(usd(b.amount)),
      'fee limit bps': b.feeBps ?? 'market',
    })),
    ...mints.map((m) => ({
      side: 'MINT (earns ≥)',
      amount: formatMoney(usd(m.amount)),
      'fee limit bps': m.feeBps ?? 'market',
    })),
  ]);
}

interface SimEntity {
  name: string;
  fundingSide: 'MINT' | 'BURN';
  wallets: { id: string; currency: string; balance: Money }[];
  venueBalance: Money;
}

/** The simulator's own books (`GET /_sim/state`): the ordinary wallet the summary of a mint-side entity leaves out. */
async function simEntities(): Promise<Map<string, SimEntity>> {
  const res = await fetch(`${baseUrl}/_sim/state`);
  const { data } = (await res.json()) as { data: { entities: SimEntity[] } };
  return new Map(data.entities.map((e) => [e.name, e]));
}

async function showFills(auctionId: number): Promise<void> {
  const ids = unreported.get(auctionId) ?? [];
  unreported.delete(auctionId);
  const orders: Orders.Order[] = await Promise.all(ids.map(({ id, owner }) => owner.orders.retrieve(id)));
  console.log(`  fills of auction ${auctionId}:`);
  printTable(
    orders.map((o) => ({
      order: o.orderId.slice(0, 8),
      side: o.orderType,
      amount: formatMoney(o.amount, { currency: false }),
      limit: o.feeBps ?? 'market',
      status: o.status,
      filled: o.fill ? formatMoney(o.fill.filledAmount, { currency: false }) : '-',
      'fee bps': o.fill?.clearingFeeBps ?? '-',
    })),
  );
  await showBalances('balances');
}

/** One row per trader: its stablecoin wallet and venue-only balance, and what its summary says. */
async function showBalances(title: string): Promise<void> {
  const books = await simEntities();
  const rows = [];
  for (const [name, client] of [
    ['burner', burner],
    ['minter', minter],
  ] as const) {
    const s = await client.account.retrieve();
    const e = books.get(name);
    const wallet = e?.wallets.find((w) => w.currency === 'USD')?.balance;
    const plain = (m: Money | undefined) => (m ? formatMoney(m, { currency: false }) : '-');
    rows.push({
      entity: `${name} (${e?.fundingSide === 'MINT' ? 'mint' : 'burn'} side)`,
      'stablecoin wallet': plain(wallet),
      'venue-only': plain(e?.venueBalance),
      // account.stablecoin is the balance the entity's own side trades from.
      available: plain(s.stablecoin.available),
      reserved: plain(s.stablecoin.reserved),
      matched: plain(s.activity.totalMatched),
      'fees paid': plain(s.activity.feesPaid),
      'rebates earned': plain(s.activity.rebatesEarned),
    });
  }
  console.log(`  ${title} (USD; available and reserved: the summary of each entity's own side):`);
  printTable(rows);
}

const stream = burner.stream.connect();
const deadline = setTimeout(() => {
  console.error('demo took too long');
  process.exit(1);
}, 60_000);
deadline.unref();

/** Reports every auction up to `auctionId` that holds our orders: a settled event missed while the
 *  stream reconnected is caught up by the next one. */
async function reportSettled(auctionId: number): Promise<void> {
  for (const id of [...unreported.keys()].sort((a, b) => a - b)) {
    if (id <= auctionId) await showFills(id);
  }
}

try {
  // The mint side starts prefunded: a venue-only balance its MINT orders draw on.
  await showBalances('starting balances');
  let placedRounds = 0;
  for await (const ev of stream.market()) {
    if (isEvent(ev, 'auction.snapshot')) {
      if (placedRounds === 0) await placeBook(++placedRounds);
      else {
        // A reconnect: whatever cleared before the current auction (and is not still settling) is settled.
        const settling = ev.data.settling?.auctionId ?? ev.data.auction.auctionId;
        await reportSettled(Math.min(settling, ev.data.auction.auctionId) - 1);
      }
    } else if (isEvent(ev, 'auction.opened')) {
      if (placedRounds < AUCTIONS) await placeBook(++placedRounds);
    } else if (isEvent(ev, 'auction.locked')) {
      console.log(`🔒 auction ${ev.data.auctionId} locked with ${ev.data.orderCount} orders`);
    } else if (isEvent(ev, 'auction.cleared')) {
      console.log(
        `⚖ auction ${ev.data.auctionId} cleared at ${ev.data.clearingFeeBps ?? '-'} bps, matched ${formatMoney(ev.data.matchedVolume)} per side in ${ev.data.fillsCount} fills`,
      );
    } else if (isEvent(ev, 'auction.settled')) {
      console.log(`✔ auction ${ev.data.auctionId} settled`);
      await reportSettled(ev.data.auctionId);
    }
    if (placedRounds === AUCTIONS && unreported.size === 0) break;
  }
  console.log('\ndemo finished');
} finally {
  await stream.close();
  await sim?.close();
  clearTimeout(deadline);
}
