import { describe, expect, it } from 'vitest';
import { ErrorCode, lookupErrorCode } from '../../../src/generated/errors.js';
import { invalidField, type VenueError, venueError } from '../../../src/simulator/engine/errors.js';

describe('the engine venue errors, built from the error catalog', () => {
  it('gives each error the code its catalog name has and the status the catalog gives that code', () => {
    const built = {
      AuctionLocked: venueError.AuctionLocked(7),
      SelfMatch: venueError.SelfMatch(7, 'MINT'),
      IdempotencyKeyReused: venueError.IdempotencyKeyReused('k'),
      AccountNotFound: venueError.AccountNotFound(),
      TransactionNotFound: venueError.TransactionNotFound('o-1'),
      VenueWalletInvalid: venueError.VenueWalletInvalid(),
    };
    expect(Object.fromEntries(Object.entries(built).map(([n, e]) => [n, [e.status, e.code]]))).toEqual({
      AuctionLocked: [400, 136001],
      SelfMatch: [409, 137006],
      IdempotencyKeyReused: [409, 137004],
      AccountNotFound: [404, 138003],
      TransactionNotFound: [404, 156003],
      VenueWalletInvalid: [400, 139001],
    });
  });

  it('has no builder whose status or code differs from the catalog', () => {
    for (const [name, build] of Object.entries(venueError)) {
      const error = (build as (...args: unknown[]) => VenueError)('x', 'y');
      const code = ErrorCode[name as keyof typeof ErrorCode];
      expect([name, error.code, error.status]).toEqual([name, code, lookupErrorCode(code)?.http]);
    }
    expect(Object.keys(venueError)).toHaveLength(18);
  });

  it('keeps the engine wording, with the instance in it', () => {
    expect(venueError.AuctionLocked(7).message).toBe(
      'Auction 7 is in its lock window; cancellations are not accepted',
    );
    expect(venueError.TransactionNotFound('o-1').message).toBe('Order o-1 not found or not accessible');
    expect(venueError.EntityNotEligible().message).toBe('Entity is not eligible for the match venue');
  });

  it('answers a field rule with code 2, status 400 and the field', () => {
    const e = invalidField('amount.amount', 'must be positive', '-1');
    expect([e.status, e.code, e.message, e.field]).toEqual([
      400,
      2,
      'Invalid request: amount.amount must be positive',
      { location: 'amount.amount', message: 'must be positive', invalidValue: '-1' },
    ]);
  });
});
