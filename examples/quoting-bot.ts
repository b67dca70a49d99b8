/**
 * A small quoting bot against a living market (the `busy` background market, docs/MARKET.md):
 * each auction the burner quotes one BURN at the reference fee, the auction clears, and the bot
 * counts what filled. For each auction where its quote did not fill in full it prints the clearing
 * report's verdict: the rule that set the fee, the fee, and its own near miss (the limit at which
 * it would have filled).
 *   npx tsx examples/quoting-bot.ts [auctions]     (default 6)
 */
import { formatMoney, MatchVenue, usd } from 'match-venue';
import { printTable, type Row } from './support/table.js';
import { openTarget } from './support/target.js';

interface Report {
  auctionId: number;
  rule: string;
  clearingFeeBps: string;
  orders: { orderId: string; nearMiss?: { feeBps: string } | null }[];
}

const auctions = Number(process.argv[2] ?? 6);
if (!Number.isInteger(auctions) || auctions < 1 || auctions > 100)
  throw new RangeError('auctions must be an integer from 1 to 100');

// A seed fixes the market, so the run (and what this prints) is the same every time.
const target = await openTarget({ market: 'busy', seed: 7 });
const burner = new MatchVenue({ apiKey: target.burner.apiKey, baseUrl: target.baseUrl });

// Whole cents in integers: the fill rate is a ratio of amounts, never computed in floats of USD.
const toCents = (amount: string) => BigInt(amount.replace('.', ''));
let quotedCents = 0n;
let filledCents = 0n;
const missed: Row[] = [];

try {
  for (let round = 1; round <= auctions; round++) {
    const amount = usd('25000');
    const quote = await burner.orders.place({
      orderType: 'BURN',
      amount,
      // The busy market clears mostly at 4.5-5.7 bps, higher in a one-sided period: a quote at 5.5
      // fills in most auctions, not all.
      feeBps: '5.5',
      postFillAction: 'cancel',
      sourceWalletId: target.burner.walletId,
      fiatAccountId: target.burner.fiatAccountId,
    });
    await target.clearAuction();
    const order = await burner.orders.retrieve(quote.orderId);
    const filled = order.fill?.filledAmount.amount ?? '0.00';
    quotedCents += toCents(amount.amount);
    filledCents += toCents(filled);
    console.log(
      `auction ${quote.auctionId}: quoted ${formatMoney(amount)} at 5.5 bps, filled ${formatMoney(usd(filled))}`,
    );
    if (filled === amount.amount) continue;
    if (!target.simulated) continue;
    const report = (await target.control(`auctions/${quote.auctionId}`)) as Report;
    const mine = report.orders.find((o) => o.orderId === quote.orderId);
    missed.push({
      auction: report.auctionId,
      rule: report.rule,
      'fee (bps)': report.clearingFeeBps,
      filled,
      'would fill at (bps)': mine?.nearMiss?.feeBps ?? 'never',
    });
  }
  // Tenths of a percent of the quoted volume, an integer ratio, shown with one decimal.
  const permille = quotedCents === 0n ? 0n : (filledCents * 1000n) / quotedCents;
  console.log(`fill rate: ${permille / 10n}.${permille % 10n}% of the quoted volume`);
  if (missed.length > 0) {
    console.log('auctions where the quote missed (from GET /_sim/auctions/{id}):');
    printTable(missed);
  }
  console.log('quoting bot done');
} finally {
  await target.close();
}
