import { describe, expect, it } from 'vitest';
import { VenueError } from '../../../src/simulator/engine/errors.js';
import { formatCentiBps, formatCents } from '../../../src/simulator/engine/money.js';
import { type PlaceInput, placeOrder, placeParsed } from '../../../src/simulator/engine/placement.js';
import { createState, type EngineContext, mustEntity } from '../../../src/simulator/engine/state.js';
import {
  DEFAULT_ENGINE_CONFIG,
  type OrderType,
  type PostFillAction,
} from '../../../src/simulator/engine/types.js';
import { SEEDED } from '../../../src/simulator/index.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function context(): EngineContext {
  const config = { ...DEFAULT_ENGINE_CONFIG, maxOrdersPerAuction: 3, transactionLimitCents: 20_000_000_000 };
  return {
    state: createState(config, T0),
    config,
    faults: {},
    random: () => 0.5,
    time: T0,
    emit: () => {},
    wants: () => false,
    dirty: new Set(),
  };
}

/** One placement as integers; `text` gives it as a request (what placeOrder reads). */
interface Case {
  who: 'burner' | 'minter';
  key: string;
  orderType: OrderType;
  amountCents: number;
  limit: number | null;
  postFillAction: PostFillAction;
  walletId?: string;
  fiatAccountId?: string;
}

const text = (c: Case): PlaceInput => ({
  idempotencyKey: c.key,
  orderType: c.orderType,
  amount: { amount: formatCents(c.amountCents), currency: 'USD' },
  feeBps: c.limit === null ? null : formatCentiBps(c.limit),
  postFillAction: c.postFillAction,
  ...(c.orderType === 'BURN'
    ? {
        sourceWalletId: c.walletId ?? SEEDED[c.who].walletId,
        fiatAccountId: c.fiatAccountId ?? SEEDED[c.who].fiatAccountId,
      }
    : {}),
});

/** What a placement did: its answer, or the refusal's code and message. */
function outcome(place: () => unknown): unknown {
  try {
    return place();
  } catch (err) {
    if (!(err instanceof VenueError)) throw err;
    return { code: err.code, message: err.message };
  }
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const burn = (n: number, amountCents: number, limit: number | null, extra: Partial<Case> = {}): Case => ({
  who: 'burner',
  key: id(n),
  orderType: 'BURN',
  amountCents,
  limit,
  postFillAction: 'cancel',
  ...extra,
});

const mint = (n: number, amountCents: number): Case => ({
  who: 'minter',
  key: id(n),
  orderType: 'MINT',
  amountCents,
  limit: 700,
  postFillAction: 'fallback',
});

// Every rule placeParsed holds, in placeOrder's order: a replay and a reused key, the transaction
// limit, unknown and another's wallet, another's fiat account, the per-auction cap (3 here), the
// balance, the self-match.
const CASES: Case[] = [
  burn(1, 100_000, 500),
  burn(1, 100_000, 500),
  burn(1, 100_001, 500),
  burn(2, 20_000_000_001, 500),
  burn(3, 500_000, null, { postFillAction: 'roll' }),
  burn(4, 100, 0, { walletId: id(99) }),
  burn(5, 100, 0, { walletId: SEEDED.minter.walletId }),
  burn(6, 100, 0, { fiatAccountId: SEEDED.minter.fiatAccountId }),
  burn(7, 100, 1_234_567),
  burn(8, 100, 1),
  mint(9, 6_000_000_000),
  mint(10, 6_000_000_000),
  burn(11, 100, 3, { who: 'minter' }),
];

describe('placeParsed', () => {
  it('answers and refuses as placeOrder does on the texts of the same integers, and leaves the same state', () => {
    const byText = context();
    const byInts = context();
    const outcomes = CASES.map((c) => {
      const entityId = SEEDED[c.who].entityId;
      const a = outcome(() => placeOrder(byText, entityId, text(c)));
      const b = outcome(() => {
        const t = text(c);
        return placeParsed(byInts, mustEntity(byInts.state, entityId), {
          idempotencyKey: c.key,
          orderType: c.orderType,
          amountCents: c.amountCents,
          feeBps: t.feeBps ?? null,
          limitCentiBps: c.limit,
          postFillAction: c.postFillAction,
          sourceWalletId: t.sourceWalletId ?? null,
          fiatAccountId: t.fiatAccountId ?? null,
        });
      });
      expect(b).toEqual(a);
      return (a as { code?: number }).code ?? 'placed';
    });
    // Each rule above met once, where the case list puts it.
    expect(outcomes).toEqual([
      'placed',
      'placed',
      137004,
      137009,
      'placed',
      137003,
      137002,
      137007,
      'placed',
      137008,
      'placed',
      137001,
      137006,
    ]);
    expect(JSON.stringify([...byInts.state.orders.values()])).toBe(
      JSON.stringify([...byText.state.orders.values()]),
    );
    expect(JSON.stringify([...byInts.state.wallets.values()])).toBe(
      JSON.stringify([...byText.state.wallets.values()]),
    );
    expect(JSON.stringify([...byInts.state.entities.values()])).toBe(
      JSON.stringify([...byText.state.entities.values()]),
    );
  });
});
