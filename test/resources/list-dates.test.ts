import { usd, ValidationError } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { createMockVenue } from 'match-venue/testing';
import { afterAll, describe, expect, it } from 'vitest';

const mock = await createMockVenue({ clock: 'manual' });
afterAll(() => mock.close());

describe('orders.list takes a Date for from and to', () => {
  it('finds what was placed in the last hour', async () => {
    const burner = mock.client('burner');
    const placed = await burner.orders.place({
      orderType: 'BURN',
      amount: usd('1000'),
      feeBps: '5',
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    const hour = await burner.orders.list({
      from: new Date(Date.now() - 3_600_000),
      to: new Date(Date.now() + 1000),
    });
    expect(hour.items.map((o) => o.orderId)).toEqual([placed.orderId]);
    const later = await burner.orders.list({ from: new Date(Date.now() + 3_600_000) });
    expect(later.items).toEqual([]);
  });

  it('an invalid Date is a ValidationError naming the field', async () => {
    const err = await mock
      .client('burner')
      .orders.list({ from: new Date('not a date') })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]?.path).toBe('from');
  });
});
