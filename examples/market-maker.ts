/**
 * A small market-making loop: each round the burner quotes a BURN order and the minter a MINT
 * order, the burner tightens its fee limit, a stale quote is cancelled, the auction clears and
 * the fills are reported.
 *   npx tsx examples/market-maker.ts
 */
import { formatMoney, MatchVenue, type Orders, usd } from 'match-venue';
import { openTarget } from './support/target.js';

const target = await openTarget();
const burner = new MatchVenue({ apiKey: target.burner.apiKey, baseUrl: target.baseUrl });
const minter = new MatchVenue({ apiKey: target.minter.apiKey, baseUrl: target.baseUrl });

function describeFill(order: Orders.Order): string {
  if (!order.fill) return `${order.orderType} ${order.status}, no fill`;
  return `${order.orderType} ${order.status}: filled ${formatMoney(order.fill.filledAmount)} at ${order.fill.clearingFeeBps} bps`;
}

try {
  for (let round = 1; round <= 3; round++) {
    const burn = await burner.orders.place({
      orderType: 'BURN',
      amount: usd(String(1000 * round)),
      feeBps: '6',
      postFillAction: 'cancel',
      sourceWalletId: target.burner.walletId,
      fiatAccountId: target.burner.fiatAccountId,
    });
    const mint = await minter.orders.place({
      orderType: 'MINT',
      amount: usd('1500'),
      feeBps: '2',
      postFillAction: 'cancel',
    });
    // A quote that turned stale before the lock: withdraw it.
    const stale = await minter.orders.place({
      orderType: 'MINT',
      amount: usd('500'),
      feeBps: '9',
      postFillAction: 'cancel',
    });
    await minter.orders.cancel({ auctionId: stale.auctionId, orderId: stale.orderId });
    // Tighten the burn quote while the auction is open.
    await burner.orders.modify({ auctionId: burn.auctionId, orderId: burn.orderId, feeBps: '5' });

    await target.clearAuction();

    const [b, m] = await Promise.all([
      burner.orders.retrieve(burn.orderId),
      minter.orders.retrieve(mint.orderId),
    ]);
    console.log(`round ${round} (auction ${burn.auctionId}): ${describeFill(b)} | ${describeFill(m)}`);
  }
  const summary = await minter.account.retrieve();
  console.log(`minter rebates earned: ${formatMoney(summary.activity.rebatesEarned)}`);
  console.log('market maker done');
} finally {
  await target.close();
}
