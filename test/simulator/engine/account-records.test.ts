import { describe, expect, it } from 'vitest';
import {
  entityRecord,
  fiatAccountRecord,
  ledgerRecord,
  walletRecord,
} from '../../../src/simulator/engine/account-records.js';
import type { Entity } from '../../../src/simulator/engine/types.js';

describe('account records', () => {
  it('copy every field in the order given: they serialise and clone as the plain objects did', () => {
    const wallet = {
      id: 'w',
      entityId: 'e',
      currency: 'USD' as const,
      balanceCents: 10_000_000_000,
      reservedCents: 5,
    };
    const fiat = { id: 'f', entityId: 'e', balanceCents: 1_000_000_000_000 };
    const entity: Entity = {
      id: 'e',
      accountId: 'a',
      name: 'n',
      apiKey: 'k',
      eligible: true,
      hasAccount: false,
      walletIds: ['w'],
      fiatAccountIds: ['f'],
      fundingSide: 'MINT',
      venueBalanceCents: 7,
      venueReservedCents: 0,
      withdrawalHeldCents: 3,
    };
    const ledger = { usdCents: -4, stablecoinCents: 2 ** 40 };
    for (const [made, plain] of [
      [walletRecord(wallet), wallet],
      [fiatAccountRecord(fiat), fiat],
      [entityRecord(entity), entity],
      [ledgerRecord(ledger), ledger],
    ] as const) {
      expect(JSON.stringify(made)).toBe(JSON.stringify(plain));
      expect(Object.keys(structuredClone(made))).toEqual(Object.keys(plain));
      expect({ ...made }).toEqual(plain);
    }
  });
});
