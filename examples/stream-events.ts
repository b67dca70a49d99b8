/**
 * Live auction events over the WebSocket, against the embedded simulator.
 *
 * Starts a simulator on a short real clock (1.5 s cycles) serving loopback HTTP + WebSocket,
 * streams the market channel and the burner's account channel, places a BURN (burner) and a MINT
 * (minter) in every auction, prints each event as it arrives and exits after two auctions settled.
 *
 *     npx tsx examples/stream-events.ts
 */
import { type AccountEvent, isEvent, type MarketEvent, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { createMockVenue } from 'match-venue/testing';

// Never hang a CI job: give up loudly after 20 s.
const watchdog = setTimeout(() => {
  console.error('stream-events example timed out');
  process.exit(1);
}, 20_000);
watchdog.unref();

const mock = await createMockVenue({
  clock: 'real',
  cycleMs: 1_500,
  lockMs: 300,
  settleMs: 200,
});
const burner = mock.client('burner');
const minter = mock.client('minter');
const stream = burner.stream.connect();
stream.on('state', ({ state }) => console.log(`[stream]  ${state}`));

async function placeBoth(): Promise<void> {
  await burner.orders.place({
    orderType: 'BURN',
    amount: usd('1000'),
    feeBps: '6',
    postFillAction: 'cancel',
    sourceWalletId: SEEDED.burner.walletId,
    fiatAccountId: SEEDED.burner.fiatAccountId,
  });
  await minter.orders.place({
    orderType: 'MINT',
    amount: usd('600'),
    feeBps: '4',
    postFillAction: 'cancel',
  });
}

function describeMarket(ev: MarketEvent): string {
  if (isEvent(ev, 'auction.snapshot'))
    return `auction ${ev.data.auction.auctionId} is ${ev.data.auction.phase}`;
  if (isEvent(ev, 'auction.cleared'))
    return `auction ${ev.data.auctionId}: fee ${ev.data.clearingFeeBps} bps, matched ${ev.data.matchedVolume.amount} ${ev.data.matchedVolume.currency}`;
  if (isEvent(ev, 'auction.opened') || isEvent(ev, 'auction.locked') || isEvent(ev, 'auction.settled'))
    return `auction ${ev.data.auctionId} (${ev.data.phase})`;
  return JSON.stringify(ev.data);
}

function describeAccount(ev: AccountEvent): string {
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
await mock.close();
console.log('done: two auctions settled');
