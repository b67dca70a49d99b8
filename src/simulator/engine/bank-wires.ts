/**
 * Bank wires: a settled USD wire landing on an entity's venue-only balance (`POST /_sim/wires`),
 * and how the state view shows them.
 */
import { isVenueCurrency, VENUE_CURRENCY_RULE } from '../../contract/money.js';
import { invalidField, venueError } from './errors.js';
import { formatCents, isOversizeAmount, parseCents, usdMoney } from './money.js';
import { venueAvailableCents } from './orders.js';
import { iso } from './rest-shapes.js';
import type { EngineContext } from './state.js';
import type { Wire } from './types.js';

/** `POST /_sim/wires` as the control route validated its shape. */
export interface WireInput {
  /** The entity whose bank sends the wire. */
  entityId: string;
  /** The USD amount, e.g. `{ amount: '5000.00', currency: 'USD' }`. */
  amount: {
    /** Positive, at most 2 decimals. */
    amount: string;
    /** `USD`. */
    currency: string;
  };
}

const AMOUNT_RULE = 'must be a positive amount with at most 2 decimals';

/**
 * A settled USD wire lands on the entity's venue-only balance (the mint side's prefunding). The
 * USD leaves the entity's bank (its linked fiat account) for the issuer, which issues as much
 * venue-only stablecoin: both currencies are conserved. Refused, moving nothing: an unknown entity
 * or a bad amount (400 code 2 naming the field), an amount above the bank balance (the same, on
 * `amount.amount`), an entity without a venue account (404 138003, as its account and withdrawals).
 */
export function landWire(ctx: EngineContext, input: WireInput) {
  const { state } = ctx;
  const entity = state.entities.get(input.entityId);
  if (!entity) throw invalidField('entityId', 'must be the entityId of a simulator entity', input.entityId);
  const cents = parseCents(input.amount.amount);
  // A well-formed amount too large for exact cents is above any bank balance: that rule answers it.
  const oversize = cents === undefined && isOversizeAmount(input.amount.amount);
  if (!oversize && (cents === undefined || cents <= 0))
    throw invalidField('amount.amount', AMOUNT_RULE, input.amount.amount);
  if (!isVenueCurrency(input.amount.currency))
    throw invalidField('amount.currency', VENUE_CURRENCY_RULE, input.amount.currency);
  if (!entity.hasAccount) throw venueError.AccountNotFound();
  const bankId = entity.fiatAccountIds[0];
  const bank = bankId === undefined ? undefined : state.fiatAccounts.get(bankId);
  if (!bank) throw venueError.AccountNotFound();
  if (cents === undefined || cents > bank.balanceCents)
    throw invalidField(
      'amount.amount',
      `must not exceed the ${formatCents(bank.balanceCents)} USD in the entity's bank (fiat account ${bank.id})`,
      input.amount.amount,
    );
  bank.balanceCents -= cents;
  state.issuer.usdCents += cents;
  state.issuer.stablecoinCents -= cents;
  entity.venueBalanceCents += cents;
  const wire: Wire = { entityId: entity.id, fiatAccountId: bank.id, amountCents: cents, settledAt: ctx.time };
  state.wires.push(wire);
  ctx.dirty.add(entity.id);
  return {
    ...toWireWire(wire),
    /** The entity's venue-only balance after the wire. */
    venueBalance: usdMoney(entity.venueBalanceCents),
    /** The part of it not reserved by resting orders. */
    venueAvailable: usdMoney(venueAvailableCents(entity)),
    /** What is left in the entity's bank. */
    bankBalance: usdMoney(bank.balanceCents),
  };
}

/** A landed wire as `/_sim/wires` and `/_sim/state` show it. */
export function toWireWire(w: Wire) {
  return {
    /** The entity the wire credited. */
    entityId: w.entityId,
    /** The bank account it came from. */
    fiatAccountId: w.fiatAccountId,
    /** How much. */
    amount: usdMoney(w.amountCents),
    /** When it landed. */
    settledAt: iso(w.settledAt),
  };
}
