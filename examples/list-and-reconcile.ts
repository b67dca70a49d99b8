/**
 * List and reconcile: walk every order across pages with `for await`, group them by status, and
 * check that the filled amounts add up to what the account summary reports as matched.
 *   npx tsx examples/list-and-reconcile.ts
 */
import { formatMoney, MatchVenue, type Money, moneyEquals, sumMoney, usd } from 'match-venue';
import { openTarget } from './support/target.js';
import { printTable } from './support/table.js';

const target = await openTarget();
const burner = new MatchVenue({ apiKey: target.burner.apiKey, baseUrl: target.baseUrl });
const minter = new MatchVenue({ apiKey: target.minter.apiKey, baseUrl: target.baseUrl });

try {
  // Some activity: 12 burns of 100..1200 against one large mint, and two orders left resting.
  for (let i = 1; i <= 12; i++) {
    await burner.orders.place({
      orderType: 'BURN',
      amount: usd(String(100 * i)),
      feeBps: '5',
      postFillAction: 'cancel',
      sourceWalletId: target.burner.walletId,
      fiatAccountId: target.burner.fiatAccountId,
    });
  }
  await minter.orders.place({
    orderType: 'MINT',
    amount: usd('5000'),
    feeBps: '1',
    postFillAction: 'cancel',
  });
  await target.clearAuction();
  for (const amount of ['300', '400']) {
    await burner.orders.place({
      orderType: 'BURN',
      amount: usd(amount),
      feeBps: '5',
      postFillAction: 'cancel',
      sourceWalletId: target.burner.walletId,
      fiatAccountId: target.burner.fiatAccountId,
    });
  }

  const byStatus = new Map<string, number>();
  const filled: Money[] = [];
  let count = 0;
  for await (const order of burner.orders.list({ pageSize: 5 })) {
    count++;
    byStatus.set(order.status, (byStatus.get(order.status) ?? 0) + 1);
    if (order.fill) filled.push(order.fill.filledAmount);
  }
  console.log(`walked ${count} orders in pages of 5`);
  printTable([...byStatus].map(([status, orders]) => ({ status, orders })));

  const filledTotal = sumMoney(filled, 'USD');
  const summary = await burner.account.retrieve();
  console.log(
    `sum of fills: ${formatMoney(filledTotal)}; account totalMatched: ${formatMoney(summary.activity.totalMatched)}`,
  );
  if (!moneyEquals(filledTotal, summary.activity.totalMatched)) {
    console.error('reconciliation FAILED');
    process.exitCode = 1;
  } else {
    console.log('reconciled: fills match the account summary');
  }
} finally {
  await target.close();
}
