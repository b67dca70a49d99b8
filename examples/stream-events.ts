/**
 * Live auction events over the WebSocket.
 *
 * Streams the market channel and the burner's account channel, places a BURN (burner) and a MINT
 * (minter) in every auction, prints each event as it arrives and exits after two auctions settled.
 * By default it starts an embedded simulator on a short real clock (1.5 s cycles) serving loopback
 * HTTP + WebSocket, whose auctions clear on their own; against MATCH_VENUE_BASE_URL (a running
 * `npx match-venue-sim`, or a venue) or in mock mode (MATCH_VENUE_ENV=mock) it clears each auction
 * through the simulator's control plane once both orders are in (a venue clears on its own cycle).
 *
 *     npx tsx examples/stream-events.ts
 *     MATCH_VENUE_BASE_URL=http://127.0.0.1:4010 npx tsx examples/stream-events.ts
 */
import { isEvent, MatchVenue, type Stream, usd } from 'match-venue';
import { openTarget } from './support/target.js';

// Only the embedded simulator's clock is known to be short; elsewhere auctions are cleared here.
const embedded = !process.env.MATCH_VENUE_BASE_URL && process.env.MATCH_VENUE_ENV !== 'mock';

// Never hang a CI job: give up loudly (20 s on the embedded simulator; a venue's cycles are longer).
const watchdog = setTimeout(
  () => {
    console.error('stream-events example timed out');
    process.exit(1);
  },
  embedded ? 20_000 : 120_000,
);
watchdog.unref();

const target = await openTarget({ clock: 'real', cycleMs: 1_500, lockMs: 300, settleMs: 200 });
const burner = new MatchVenue({ apiKey: target.burner.apiKey, baseUrl: target.baseUrl });
const minter = new MatchVenue({ apiKey: target.minter.apiKey, baseUrl: target.baseUrl });
const stream = burner.stream.connect();
stream.on('state', ({ state }) => console.log(`[stream]  ${state}`));

async function placeBoth(): Promise<void> {
  await burner.orders.place({
    orderType: 'BURN',
    amount: usd('1000'),
    feeBps: '6',
    postFillAction: 'cancel',
    sourceWalletId: target.burner.walletId,
    fiatAccountId: target.burner.fiatAccountId,
  });
  await minter.orders.place({
    orderType: 'MINT',
    amount: usd('600'),
    feeBps: '4',
    postFillAction: 'cancel',
  });
  if (!embedded) await target.clearAuction();
}

function describeMarket(ev: Stream.MarketEvent): string {
  if (isEvent(ev, 'auction.snapshot'))
    return `auction ${ev.data.auction.auctionId} is ${ev.data.auction.phase}`;
  if (isEvent(ev, 'auction.cleared'))
    return `auction ${ev.data.auctionId}: fee ${ev.data.clearingFeeBps} bps, matched ${ev.data.matchedVolume.amount} ${ev.data.matchedVolume.currency}`;
  if (isEvent(ev, 'auction.opened') || isEvent(ev, 'auction.locked') || isEvent(ev, 'auction.settled'))
    return `auction ${ev.data.auctionId} (${ev.data.phase})`;
  return JSON.stringify(ev.data);
}

function describeAccount(ev: Stream.AccountEvent): string {
  if (isEvent(ev, 'order.accepted') || isEvent(ev, 'order.updated')) {
    const o = ev.data;
    const fill = o.fill ? `, filled ${o.fill.filledAmount.amount} at ${o.fill.clearingFeeBps} bps` : '';
    return `${o.orderType} ${o.amount.amount} in auction ${o.auctionId}: ${o.status}${fill}`;
  }
  if (isEvent(ev, 'balance.updated')) return `available ${ev.data.stablecoin.available.amount} USD`;
  return JSON.stringify(ev.data);
}

const account = (async () => {
  for await (const ev of stream.account())
    console.log(`[account] #${ev.seq} ${ev.event.padEnd(16)} ${describeAccount(ev)}`);
})();

let settled = 0;
for await (const ev of stream.market()) {
  console.log(`[market]  #${ev.seq} ${ev.event.padEnd(16)} ${describeMarket(ev)}`);
  // Trade in every auction that opens (and in the one open when we subscribed).
  if (isEvent(ev, 'auction.snapshot') || isEvent(ev, 'auction.opened')) await placeBoth();
  if (isEvent(ev, 'auction.settled') && ++settled === 2) break;
}

await stream.close();
await account;
await target.close();
console.log('done: two auctions settled');
