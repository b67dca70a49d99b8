import { MatchVenue, usd, ValidationError } from 'match-venue';
import { describe, expect, it } from 'vitest';

// A malformed wallet id is refused before sending, as a malformed order id is; a well-formed one
// of either shape the venue may use (a platform wallet's numeric id, the simulator's UUID) is sent.
const FIAT = '10000000-0000-4000-8000-00000000f001';
const sent: string[] = [];
const venue = new MatchVenue({
  apiKey: 'TEST_API_KEY:burner:sim',
  maxRetries: 0,
  handler: async (req) => {
    sent.push(((await req.json()) as { sourceWalletId: string }).sourceWalletId);
    return Response.json({ code: 137003, message: 'Wallet not found' }, { status: 400 });
  },
});
const burn = (sourceWalletId: string) =>
  venue.orders.place({
    orderType: 'BURN',
    amount: usd('1000'),
    postFillAction: 'cancel',
    sourceWalletId,
    fiatAccountId: FIAT,
  });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail('resolved'),
    (e: unknown) => e,
  );

describe('orders.place sourceWalletId', () => {
  it.each([
    ['a space', 'wallet 1', 'must be a wallet id: no spaces or control characters'],
    ['a trailing newline', '1000216185\n', 'must be a wallet id: no spaces or control characters'],
    ['a control character', '1000\u0000216185', 'must be a wallet id: no spaces or control characters'],
    [
      'a UUID cut short',
      '10000000-0000-4000-8000-00000000a00',
      'is shaped like a UUID but is not one (8-4-4-4-12 hex digits)',
    ],
    [
      'a UUID mistyped',
      '10000000-0000-4000-8000-00000000a0g1',
      'is shaped like a UUID but is not one (8-4-4-4-12 hex digits)',
    ],
  ])('with %s is a ValidationError naming sourceWalletId; nothing is sent', async (_, id, rule) => {
    const before = sent.length;
    const err = await failure(burn(id));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ kind: 'MV_VALIDATION', path: 'sourceWalletId' });
    expect((err as ValidationError).issues).toEqual([
      { path: 'sourceWalletId', rule, kind: 'invalid_format' },
    ]);
    expect((err as Error).message).toBe(`Invalid orders.place params:\n  - sourceWalletId: ${rule}`);
    expect(sent.length).toBe(before);
  });

  it('an empty one is named by the schema check, as before', async () => {
    const err = await failure(burn(''));
    expect(err).toMatchObject({ kind: 'MV_VALIDATION', path: 'sourceWalletId' });
  });

  it('a numeric platform wallet id and a UUID are sent; the venue answers for them', async () => {
    for (const id of ['1000216185', '10000000-0000-4000-8000-00000000a001']) {
      const err = await failure(burn(id));
      expect(err).toMatchObject({
        kind: 'MV_API_BAD_REQUEST',
        code: 'MV_API_BAD_REQUEST',
        venueCode: 137003,
      });
      expect(sent.at(-1)).toBe(id);
    }
  });
});
