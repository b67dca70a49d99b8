// A bot session for the record-then-replay tests: two MatchVenue clients that place BURN and MINT
// orders, list, read and cancel them, follow the burner's account events on a stream, wait for the
// outcome once the auction has cleared and withdraw. Everything it got is returned, to be
// serialized: a replay of its cassette must give exactly the same.
import { isEvent, type MatchVenue, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';

export interface BotClients {
  burner: MatchVenue;
  minter: MatchVenue;
}

/** Where the session calls its control: the auction must clear; faults may be injected. */
export type BotStep = 'subscribed' | 'before place' | 'clear';

/**
 * Runs the session. `control` is called at each BotStep: the recording clears the mock venue's
 * auction there, or injects a fault (controls, not SDK exchanges, so not recorded); a replay does
 * nothing, its cassette already holds what followed.
 */
export async function botSession(
  { burner, minter }: BotClients,
  control: (step: BotStep) => void,
): Promise<unknown[]> {
  const got: unknown[] = [];
  const final: string[] = [];
  const stream = burner.stream.connect();
  try {
    const events = stream.account();
    got.push(['subscribed', await events.ready]);
    control('subscribed');
    control('before place');
    const burn = await burner.orders.place({
      orderType: 'BURN',
      amount: usd('1000'),
      feeBps: null,
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    got.push(['place burn', burn]);
    const mint = await minter.orders.place({
      orderType: 'MINT',
      amount: usd('1000'),
      feeBps: null,
      postFillAction: 'cancel',
    });
    got.push(['place mint', mint]);
    final.push(burn.orderId, mint.orderId);
    const spare = await burner.orders.place({
      orderType: 'BURN',
      amount: usd('300'),
      feeBps: '5',
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    got.push(['place spare', spare]);
    got.push(['list', (await burner.orders.list({ orderType: 'BURN' })).items]);
    got.push(['get', await burner.orders.retrieve(burn.orderId)]);
    got.push(['cancel', await burner.orders.cancel({ auctionId: spare.auctionId, orderId: spare.orderId })]);
    control('clear');
    // The burner's account events until its BURN is final, in the order they came.
    for (;;) {
      const next = await events.next();
      if (next.done) break;
      got.push(['event', next.value]);
      if (isEvent(next.value, 'order.updated') && next.value.data.orderId === burn.orderId) {
        if (next.value.data.status === 'filled') break;
      }
    }
  } finally {
    await stream.close();
  }
  const [burnId = '', mintId = ''] = final;
  got.push(['outcome burn', await burner.orders.waitForOutcome(burnId)]);
  got.push(['outcome mint', await minter.orders.waitForOutcome(mintId)]);
  got.push(['minter account', await minter.account.retrieve()]);
  got.push([
    'withdraw',
    await minter.withdrawals.create({ amount: usd('100'), fiatAccountId: SEEDED.minter.fiatAccountId }),
  ]);
  got.push(['list cancelled', (await burner.orders.list({ status: 'cancelled' })).items]);
  return got;
}
