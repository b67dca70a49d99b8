import { MatchVenue, usd, ValidationError } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';

// Nothing is sent: a fetch that records every call proves the error comes before the request.
const sent: string[] = [];
const venue = new MatchVenue({
  apiKey: SEEDED.minter.apiKey,
  baseUrl: 'http://127.0.0.1:9',
  fetch: async (url) => {
    sent.push(url);
    throw new Error('nothing may be sent');
  },
});

async function issuesOf(call: Promise<unknown>) {
  const err = await call.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ValidationError);
  return (err as ValidationError).issues;
}

describe('an amount that is not a Money object names usd()', () => {
  it('a number as the amount of an order', async () => {
    const issues = await issuesOf(
      venue.orders.place({ orderType: 'MINT', amount: 1000 as never, feeBps: '2', postFillAction: 'cancel' }),
    );
    expect(issues).toEqual([
      {
        path: 'amount',
        rule: "must be a Money object, not a number: build it with usd('1000.00')",
        kind: 'invalid_type',
      },
    ]);
  });

  it('a string as the amount of a withdrawal', async () => {
    const issues = await issuesOf(
      venue.withdrawals.create({ amount: '250' as never, fiatAccountId: SEEDED.minter.fiatAccountId }),
    );
    expect(issues[0]?.rule).toBe("must be a Money object, not a string: build it with usd('1000.00')");
  });

  it('a number inside the Money object', async () => {
    const issues = await issuesOf(
      venue.orders.place({
        orderType: 'MINT',
        amount: { amount: 1000 as never, currency: 'USD' },
        postFillAction: 'cancel',
      }),
    );
    expect(issues[0]).toMatchObject({
      path: 'amount.amount',
      rule: "must be a decimal string, not a number: build it with usd('1000.00')",
    });
  });

  it('other type errors keep their own message, and nothing was sent', async () => {
    const issues = await issuesOf(
      venue.orders.place({
        orderType: 'MINT',
        amount: usd('1000'),
        feeBps: 2 as never,
        postFillAction: 'cancel',
      }),
    );
    expect(issues[0]?.path).toBe('feeBps');
    expect(issues[0]?.rule).not.toContain('usd(');
    expect(sent).toEqual([]);
  });
});
