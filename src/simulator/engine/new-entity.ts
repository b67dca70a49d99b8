/**
 * A trading entity added to a fresh state beside the seeded ones, with one USD wallet, one bank
 * account and a venue-only balance: what the background market's participants and a scenario's
 * new entities both are, added through the engine's seeder (seeder.ts, which books the money once
 * all are added). The caller fixes the ids (by number, so a run can be replayed).
 */
import { entityRecord, fiatAccountRecord, walletRecord } from './account-records.js';
import type { EngineState } from './state.js';
import type { Entity, FundingSide } from './types.js';

export interface NewEntity {
  ids: { entityId: string; accountId: string; walletId: string; fiatAccountId: string };
  name: string;
  fundingSide: FundingSide;
  walletCents: number;
  venueCents: number;
  bankCents: number;
}

export function addEntity(state: EngineState, n: NewEntity): Entity {
  const { ids } = n;
  const entity = entityRecord({
    id: ids.entityId,
    accountId: ids.accountId,
    name: n.name,
    apiKey: `TEST_API_KEY:${n.name}:sim`,
    eligible: true,
    hasAccount: true,
    walletIds: [ids.walletId],
    fiatAccountIds: [ids.fiatAccountId],
    fundingSide: n.fundingSide,
    venueBalanceCents: n.venueCents,
    venueReservedCents: 0,
    withdrawalHeldCents: 0,
  });
  state.entities.set(entity.id, entity);
  state.byApiKey.set(entity.apiKey, entity);
  const wallet = { id: ids.walletId, entityId: entity.id, currency: 'USD', reservedCents: 0 } as const;
  state.wallets.set(ids.walletId, walletRecord({ ...wallet, balanceCents: n.walletCents }));
  const fiat = { id: ids.fiatAccountId, entityId: entity.id, balanceCents: n.bankCents };
  state.fiatAccounts.set(ids.fiatAccountId, fiatAccountRecord(fiat));
  state.ordersByEntity.set(entity.id, []);
  state.exposure.set(entity.id, { BURN: 0, MINT: 0 });
  state.activity.set(entity.id, { at: [], matched: [0], rebates: [0], fees: [0] });
  return entity;
}
