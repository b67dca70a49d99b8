/**
 * Withdraw: the minter (the mint side) prefunds a venue-only stablecoin balance by wire; its MINT
 * order draws on it and the fill pays ordinary stablecoin into its wallet. It then wires part of
 * what is left unreserved back out as USD. Shows how to settle an unknown outcome safely.
 *   npx tsx examples/withdraw.ts
 */
import { formatMoney, MatchVenue, OutcomeUnknownError, usd } from 'match-venue';
import { openTarget } from './support/target.js';

const target = await openTarget();
const burner = new MatchVenue({ apiKey: target.burner.apiKey, baseUrl: target.baseUrl });
const minter = new MatchVenue({ apiKey: target.minter.apiKey, baseUrl: target.baseUrl });

try {
  await burner.orders.place({
    orderType: 'BURN',
    amount: usd('1000'),
    postFillAction: 'cancel',
    sourceWalletId: target.burner.walletId,
    fiatAccountId: target.burner.fiatAccountId,
  });
  await minter.orders.place({ orderType: 'MINT', amount: usd('1000'), postFillAction: 'cancel' });
  await target.clearAuction();

  // The mint side's account summary reports its venue-only balance: available is what a
  // withdrawal (or the next MINT order) can take.
  const before = await minter.account.retrieve();
  console.log(`venue-only available before: ${formatMoney(before.stablecoin.available)}`);

  const request = { amount: usd('250'), fiatAccountId: target.minter.fiatAccountId };
  let withdrawal: Awaited<ReturnType<typeof minter.withdrawals.create>>;
  try {
    withdrawal = await minter.withdrawals.create(request);
  } catch (err) {
    // Every attempt failed after the request may have arrived: the same key never makes two, and
    // `wait` gives a final answer (the withdrawal, or none for good once no attempt can land).
    if (!(err instanceof OutcomeUnknownError)) throw err;
    const resolved = await minter.withdrawals.resolveUnknown(err, { wait: true });
    if (resolved.status !== 'found') throw new Error('the withdrawal was refused', { cause: err.cause });
    withdrawal = resolved.withdrawal;
  }
  console.log(`withdrawal ${withdrawal.id}: ${withdrawal.status}`);

  const after = await minter.account.retrieve();
  console.log(
    `venue-only available after: ${formatMoney(after.stablecoin.available)}, reserved ${formatMoney(after.stablecoin.reserved)} (the payout in flight)`,
  );
  console.log('withdraw done');
} finally {
  await target.close();
}
