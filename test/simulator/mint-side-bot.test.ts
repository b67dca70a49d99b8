// A MINT-side bot written only from the README: the public SDK and its testing entry, nothing of
// the simulator's internals. It checks `available` before each order, trades against a burner,
// watches its venue-only balance go down and its stablecoin go up, and wires out the unused rest.
import { compareMoney, ErrorCode, isApiError, type Money, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { createMockVenue, type MockVenue } from 'match-venue/testing';
import { afterEach, describe, expect, it } from 'vitest';

let mock: MockVenue | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** The minter's ordinary stablecoin wallet, as the mock venue's simulator shows it. */
function walletBalance(venue: MockVenue): string | undefined {
  const minter = venue.simulator.getState().entities.find((e) => e.name === 'minter');
  return minter?.wallets.find((w) => w.id === SEEDED.minter.walletId)?.balance.amount;
}

describe('a MINT-side bot against createMockVenue()', () => {
  it('places within its venue-only available, fills against a burner, and withdraws the unused rest', async () => {
    mock = await createMockVenue({ startTime: '2026-01-01T00:00:00.000Z' });
    const minter = mock.client('minter');
    const burner = mock.client('burner');

    // The pre-order check: the summary's available is what a MINT order can take.
    const canMint = async (amount: Money) =>
      compareMoney((await minter.account.retrieve()).stablecoin.available, amount) >= 0;
    const start = await minter.account.retrieve();
    expect(start.stablecoin).toEqual({
      available: usd('100000000'),
      reserved: usd('0'),
      total: usd('100000000'),
    });
    expect(await canMint(usd('5000'))).toBe(true);
    const mint = await minter.orders.place({
      orderType: 'MINT',
      amount: usd('5000'),
      feeBps: '2',
      postFillAction: 'cancel',
    });
    expect((await minter.account.retrieve()).stablecoin).toEqual({
      available: usd('99995000'),
      reserved: usd('5000'),
      total: usd('100000000'),
    });

    // A burner pays at most 6 bps for 3,000.00: the auction clears at 4 bps, the midpoint.
    await burner.orders.place({
      orderType: 'BURN',
      amount: usd('3000'),
      feeBps: '6',
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    mock.clearAuction();
    const filled = await minter.orders.retrieve(mint.orderId);
    expect(filled.status).toBe('partial_fill');
    expect(filled.fill).toMatchObject({ filledAmount: usd('3000'), clearingFeeBps: '4.00' });

    // Venue-only down by the fill, the unfilled 2,000.00 released; stablecoin up by the fill and
    // its 1.20 rebate (4 bps of 3,000.00).
    const after = await minter.account.retrieve();
    expect(after.stablecoin).toEqual({
      available: usd('99997000'),
      reserved: usd('0'),
      total: usd('99997000'),
    });
    expect(after.activity.rebatesEarned).toEqual(usd('1.20'));
    expect(walletBalance(mock)).toBe('100003001.20');

    // Wire out the unused rest, up to the transaction limit per withdrawal; a cent more is 138001.
    const limit = usd('10000000');
    let left = after.stablecoin.available;
    while (compareMoney(left, usd('0')) > 0) {
      const amount = compareMoney(left, limit) > 0 ? limit : usd(left.amount);
      const w = await minter.withdrawals.create({ amount, fiatAccountId: SEEDED.minter.fiatAccountId });
      expect(w.status).toBe('pending');
      left = (await minter.account.retrieve()).stablecoin.available;
    }
    const more = await minter.withdrawals
      .create({ amount: usd('0.01'), fiatAccountId: SEEDED.minter.fiatAccountId })
      .catch((e: unknown) => e);
    expect(isApiError(more, ErrorCode.WithdrawalExceedsBalance)).toBe(true);
    mock.advance(3_000);
    expect((await minter.account.retrieve()).stablecoin).toEqual({
      available: usd('0'),
      reserved: usd('0'),
      total: usd('0'),
    });
    expect(await canMint(usd('100'))).toBe(false);

    // A wire prefunds it again: the next MINT order fits.
    mock.wire('minter', usd('100'));
    expect(await canMint(usd('100'))).toBe(true);
    await minter.orders.place({ orderType: 'MINT', amount: usd('100'), postFillAction: 'cancel' });
    const short = await minter.orders
      .place({ orderType: 'MINT', amount: usd('100'), postFillAction: 'cancel' })
      .catch((e: unknown) => e);
    expect(isApiError(short, ErrorCode.InsufficientBalance)).toBe(true);
  });
});
