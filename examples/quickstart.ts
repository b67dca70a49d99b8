/**
 * Quickstart: read the account, place an order, look it up, list, modify, cancel.
 *   npx tsx examples/quickstart.ts              (embedded simulator)
 *   MATCH_VENUE_BASE_URL=http://127.0.0.1:4010 npx tsx examples/quickstart.ts
 */
import { formatMoney, isApiError, MatchVenue, usd } from 'match-venue';
import { openTarget } from './support/target.js';

const target = await openTarget();
try {
  const venue = new MatchVenue({ apiKey: target.burner.apiKey, baseUrl: target.baseUrl });

  const account = await venue.account.retrieve();
  console.log(`account ${account.accountId}: available ${formatMoney(account.stablecoin.available)}`);

  const placed = await venue.orders.place({
    orderType: 'BURN',
    amount: usd('1000'),
    feeBps: '5',
    postFillAction: 'roll',
    sourceWalletId: target.burner.walletId,
    fiatAccountId: target.burner.fiatAccountId,
  });
  console.log(`placed order ${placed.orderId} in auction ${placed.auctionId} (${placed.status})`);

  const order = await venue.orders.retrieve(placed.orderId);
  console.log(`retrieved: ${order.orderType} ${formatMoney(order.amount)} fee limit ${order.feeBps} bps`);

  const page = await venue.orders.list({ status: 'pending', pageSize: 10 });
  console.log(`pending orders: ${page.pagination.total}`);

  await venue.orders.modify({ auctionId: placed.auctionId, orderId: placed.orderId, feeBps: '4' });
  console.log('modified fee limit to 4 bps');

  const cancelled = await venue.orders.cancel({ auctionId: placed.auctionId, orderId: placed.orderId });
  console.log(`cancelled: ${cancelled.status}`);

  try {
    await venue.orders.cancel({ auctionId: placed.auctionId, orderId: crypto.randomUUID() });
  } catch (err) {
    if (isApiError(err))
      console.log(`expected error: ${err.status} code ${err.venueCode} (request ${err.requestId})`);
    else throw err;
  }
  console.log('quickstart done');
} finally {
  await target.close();
}
