/**
 * Entities, wallets, fiat accounts and the house's and issuer's ledgers as the engine makes them:
 * copies of the fields given, as instances of classes of their own, the same keys in the same order.
 *
 * Why classes: their balances are rewritten at every settlement, a few times per order, and most
 * exceed a small integer (a seeded wallet holds 10^10 cents). V8 keeps one box per object for a
 * field that has only ever held doubles and rewrites it in place; a "tagged" field gets a new
 * number allocated at every write. Object literals with the same keys in the same order share one
 * hidden class, and the snapshot schema's shapes (snapshot/schema.ts: `z.object({ id, entityId,
 * currency, balanceCents: cents, ... })`) are such literals: sharing them made every money field
 * tagged. An instance of a class has a hidden class of its own, and the objects made below, before
 * any real one, give each money field a double first (as records.ts does for orders). A number is
 * the same number in either representation: nothing an engine reads or writes changes.
 */
import type { Entity, FiatAccount, Ledger, Wallet } from './types.js';

class WalletRecord implements Wallet {
  declare id: string;
  declare entityId: string;
  declare currency: Wallet['currency'];
  declare balanceCents: number;
  declare reservedCents: number;

  constructor(w: Wallet) {
    this.id = w.id;
    this.entityId = w.entityId;
    this.currency = w.currency;
    this.balanceCents = w.balanceCents;
    this.reservedCents = w.reservedCents;
  }
}

class FiatAccountRecord implements FiatAccount {
  declare id: string;
  declare entityId: string;
  declare balanceCents: number;

  constructor(f: FiatAccount) {
    this.id = f.id;
    this.entityId = f.entityId;
    this.balanceCents = f.balanceCents;
  }
}

class EntityRecord implements Entity {
  declare id: string;
  declare accountId: string;
  declare name: string;
  declare apiKey: string;
  declare eligible: boolean;
  declare hasAccount: boolean;
  declare walletIds: string[];
  declare fiatAccountIds: string[];
  declare fundingSide: Entity['fundingSide'];
  declare venueBalanceCents: number;
  declare venueReservedCents: number;
  declare withdrawalHeldCents: number;

  constructor(e: Entity) {
    this.id = e.id;
    this.accountId = e.accountId;
    this.name = e.name;
    this.apiKey = e.apiKey;
    this.eligible = e.eligible;
    this.hasAccount = e.hasAccount;
    this.walletIds = e.walletIds;
    this.fiatAccountIds = e.fiatAccountIds;
    this.fundingSide = e.fundingSide;
    this.venueBalanceCents = e.venueBalanceCents;
    this.venueReservedCents = e.venueReservedCents;
    this.withdrawalHeldCents = e.withdrawalHeldCents;
  }
}

class LedgerRecord implements Ledger {
  declare usdCents: number;
  declare stablecoinCents: number;

  constructor(l: Ledger) {
    this.usdCents = l.usdCents;
    this.stablecoinCents = l.stablecoinCents;
  }
}

export const walletRecord = (w: Wallet): Wallet => new WalletRecord(w);
export const fiatAccountRecord = (f: FiatAccount): FiatAccount => new FiatAccountRecord(f);
export const entityRecord = (e: Entity): Entity => new EntityRecord(e);
export const ledgerRecord = (l: Ledger): Ledger => new LedgerRecord(l);

// Doubles first, then a write of each field: every money field starts and stays a double field.
for (const n of [0.5, 1.5]) {
  const wallet = walletRecord({ id: '', entityId: '', currency: 'USD', balanceCents: n, reservedCents: n });
  const fiat = fiatAccountRecord({ id: '', entityId: '', balanceCents: n });
  const entity = entityRecord({
    id: '',
    accountId: '',
    name: '',
    apiKey: '',
    eligible: true,
    hasAccount: true,
    walletIds: [],
    fiatAccountIds: [],
    fundingSide: 'BURN',
    venueBalanceCents: n,
    venueReservedCents: n,
    withdrawalHeldCents: n,
  });
  const ledger = ledgerRecord({ usdCents: n, stablecoinCents: n });
  wallet.balanceCents = wallet.reservedCents = fiat.balanceCents = n + 1;
  entity.venueBalanceCents = entity.venueReservedCents = entity.withdrawalHeldCents = n + 1;
  ledger.usdCents = ledger.stablecoinCents = n + 1;
}
