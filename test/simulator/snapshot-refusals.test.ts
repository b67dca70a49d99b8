import { createSimulator, type Simulator } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { MarketConfigError, resolveMarket } from '../../src/simulator/market/config.js';
import { key, MINTER, newDriver } from './helpers.js';

// Issue 33, point 1: a restore is checked whole before anything changes. Each document below was
// accepted before (200, then 500s on the next clear or read, or 500 with the state already
// replaced); now each is a 400 code 2 naming its JSON path and rule, and the state and the event
// log read back byte for byte as before.

const MARKET = { preset: 'calm', noise: { count: 4 }, liquidity: { count: 1 } } as const;
const UNKNOWN = '00000000-0000-4000-8000-00000000beef';
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const BURNER_ID = '10000000-0000-4000-8000-000000000001';

type Doc = {
  clock: { now: number };
  market: { config: Record<string, unknown> } | null;
  engine: {
    time: number;
    state: {
      entities: { id: string; apiKey: string | null; walletIds: string[] }[];
      wallets: { balanceCents: number }[];
      orders: { orderId: string; entityId: string; amountCents: number; feeBps: string | null }[];
      auctions: {
        auctionId: number;
        opensAt: number;
        orders: string[];
        pending: Record<string, { BURN: number; MINT: number }>;
      }[];
      currentAuctionId: number;
      withdrawals: { entityId: string }[];
      activeWithdrawals: string[];
      exposure: Record<string, { BURN: number; MINT: number }>;
    };
  };
};

/**
 * A simulator (event log on) whose state holds what the cases edit: a market, settled and
 * settling auctions, a resting limit order of the burner, an active withdrawal of the minter.
 */
async function setting() {
  const d = newDriver({ market: MARKET, seed: 2, eventLog: true });
  await d.placed(d.burn('1000.00', { feeBps: '5' }));
  await d.clear(true);
  await d.clear(false);
  await d.placed(d.burn('500.00', { feeBps: '7.5' }));
  const withdrawal = await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, {
    idempotencyKey: key(),
    amount: { amount: '10.00', currency: 'USD' },
    fiatAccountId: MINTER.fiatAccountId,
  });
  expect(withdrawal.status).toBe(201);
  const doc = asVersion1(JSON.parse(JSON.stringify(d.sim.snapshot()))) as unknown as Doc;
  expect(doc.engine.state.activeWithdrawals).toHaveLength(1);
  return { sim: d.sim, doc };
}

type Compact = { columns: string[]; ids: string[]; rows: unknown[][] };

/**
 * The document in the version 1 shape (orders as objects, every list written), which restore reads
 * as it reads version 2: the cases below edit orders by field. Spelled out here, not imported, so
 * that this file states the format it relies on.
 */
function asVersion1(doc: { version: number; engine: { state: Record<string, unknown> } }) {
  if (doc.version === 1) return doc;
  const state = doc.engine.state;
  const { columns, ids, rows } = state.orders as Compact;
  const tabled = new Set(['entityId', 'sourceWalletId', 'fiatAccountId']);
  const orders = rows.map((row) =>
    Object.fromEntries(
      columns.map((c, i) => [c, tabled.has(c) && row[i] !== null ? ids[row[i] as number] : row[i]]),
    ),
  ) as { orderId: string; entityId: string; auctionId: number }[];
  const entities = state.entities as { id: string }[];
  const ordersByEntity = Object.fromEntries(
    entities.map((e) => [e.id, orders.filter((o) => o.entityId === e.id).map((o) => o.orderId)]),
  );
  const auctions = (state.auctions as { auctionId: number; orders?: string[] }[]).map((a) => ({
    ...a,
    orders: a.orders ?? orders.filter((o) => o.auctionId === a.auctionId).map((o) => o.orderId),
  }));
  return {
    ...doc,
    version: 1,
    engine: { ...doc.engine, state: { ...state, orders, ordersByEntity, auctions } },
  };
}

const limitOrder = (doc: Doc) => doc.engine.state.orders.findIndex((o) => o.feeBps === '7.5');

/** [what, the path the refusal names, a fragment of its rule, the edit]. */
const CASES: [string, string | ((doc: Doc) => string), RegExp, (doc: Doc) => void][] = [
  ['clock.now at 2^53-1', 'clock.now', /between 0 and 253402300799999/, (d) => (d.clock.now = MAX_SAFE)],
  ['engine time at 2^53-1', 'engine.time', /1970 to 9999/, (d) => (d.engine.time = MAX_SAFE)],
  [
    'an order naming a parent that does not name it back',
    'engine.state.orders.1.parentOrderId',
    /whose childOrderId is not this order/,
    (d) => {
      const [first, second] = d.engine.state.orders as unknown as {
        orderId: string;
        parentOrderId: string | null;
      }[];
      if (first && second) second.parentOrderId = first.orderId;
    },
  ],
  [
    'an auction opening at 2^53-1',
    (d) => `engine.state.auctions.${d.engine.state.auctions.length - 1}.opensAt`,
    /1970 to 9999/,
    (d) => {
      (d.engine.state.auctions.at(-1) as { opensAt: number }).opensAt = MAX_SAFE;
    },
  ],
  [
    'a negative wallet balance',
    'engine.state.wallets.0.balanceCents',
    /must not be negative/,
    (d) => {
      (d.engine.state.wallets[0] as { balanceCents: number }).balanceCents = -1;
    },
  ],
  [
    'a negative order amount',
    (d) => `engine.state.orders.${limitOrder(d)}.amountCents`,
    /must be positive/,
    (d) => {
      (d.engine.state.orders[limitOrder(d)] as { amountCents: number }).amountCents = -50_000;
    },
  ],
  [
    'feeBps "<b>9</b>"',
    (d) => `engine.state.orders.${limitOrder(d)}.feeBps`,
    /decimal number of bps/,
    (d) => {
      (d.engine.state.orders[limitOrder(d)] as { feeBps: string }).feeBps = '<b>9</b>';
    },
  ],
  [
    'an order of an entity that does not exist',
    (d) => `engine.state.orders.${limitOrder(d)}.entityId`,
    /names entity 00000000-0000-4000-8000-00000000beef, not in engine\.state\.entities/,
    (d) => {
      (d.engine.state.orders[limitOrder(d)] as { entityId: string }).entityId = UNKNOWN;
    },
  ],
  [
    'two orders with one id',
    'engine.state.orders.1.orderId',
    /must be unique/,
    (d) => {
      const [first, second] = d.engine.state.orders as unknown as [{ orderId: string }, { orderId: string }];
      second.orderId = first.orderId;
    },
  ],
  [
    'an entity naming a wallet that does not exist',
    'engine.state.entities.0.walletIds.2',
    /must name a wallet of this entity/,
    (d) => d.engine.state.entities[0]?.walletIds.push(UNKNOWN),
  ],
  [
    'two entities sharing one API key',
    'engine.state.entities.1.apiKey',
    /must be unique/,
    (d) => {
      const [a, b] = d.engine.state.entities as unknown as [{ apiKey: string }, { apiKey: string }];
      b.apiKey = a.apiKey;
    },
  ],
  [
    'the current auction set to one already settled',
    'engine.state.currentAuctionId',
    /must name an open or locked auction; auction 1 is settled/,
    (d) => (d.engine.state.currentAuctionId = 1),
  ],
  [
    'an active withdrawal of an unknown entity',
    'engine.state.withdrawals.0.entityId',
    /names entity 00000000-0000-4000-8000-00000000beef/,
    (d) => {
      (d.engine.state.withdrawals[0] as { entityId: string }).entityId = UNKNOWN;
    },
  ],
  [
    'a market preset named constructor',
    'market.config',
    /market\.config\.preset must be one of calm, busy, one-sided; got "constructor"/,
    (d) => {
      (d.market as { config: Record<string, unknown> }).config = { preset: 'constructor' };
    },
  ],
  [
    'a resting order its auction does not list',
    (d) => `engine.state.orders.${limitOrder(d)}`,
    /is pending but its auction 3 does not list it/,
    (d) => {
      const current = d.engine.state.auctions.at(-1) as { orders: string[] };
      const id = d.engine.state.orders[limitOrder(d)]?.orderId;
      current.orders = current.orders.filter((o) => o !== id);
    },
  ],
  [
    "an auction's resting counts that do not match its orders",
    (d) => `engine.state.auctions.${d.engine.state.auctions.length - 1}.pending.${BURNER_ID}`,
    /must count the entity's resting orders \(BURN 1, MINT 0\)/,
    (d) => {
      const counts = d.engine.state.auctions.at(-1)?.pending[BURNER_ID];
      if (counts) counts.BURN += 1;
    },
  ],
  [
    'exposure counters that do not match the book',
    'engine.state',
    /the books do not balance: entity 10000000-0000-4000-8000-000000000001 exposure counters off/,
    (d) => {
      const burner = d.engine.state.exposure['10000000-0000-4000-8000-000000000001'];
      if (burner) burner.BURN += 1;
    },
  ],
];

const get = async (sim: Simulator, path: string) =>
  (await sim.handle(new Request(`http://sim.test${path}`))).text();

async function restore(sim: Simulator, doc: unknown) {
  const res = await sim.handle(
    new Request('http://sim.test/_sim/restore', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(doc),
    }),
  );
  return {
    status: res.status,
    body: (await res.json()) as { code: number; message: string; errors?: { location: string }[] },
  };
}

describe('POST /_sim/restore refuses a document it cannot run, changing nothing', () => {
  it.each(CASES)(
    '%s: 400 code 2 naming its path; state and log byte-identical',
    async (_what, at, rule, edit) => {
      const { sim, doc } = await setting();
      const bad = structuredClone(doc);
      edit(bad);
      const path = typeof at === 'string' ? at : at(doc);
      const [state, log] = [await get(sim, '/_sim/state'), await get(sim, '/_sim/log')];

      const r = await restore(sim, bad);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(2);
      expect(r.body.errors?.[0]?.location).toBe(path);
      expect(r.body.message.startsWith(`Invalid request: snapshot ${path}`)).toBe(true);
      expect(r.body.message).toMatch(rule);
      expect(await get(sim, '/_sim/state')).toBe(state);
      expect(await get(sim, '/_sim/log')).toBe(log);
      // The untouched document is still taken: the refusal was the edit's.
      expect((await restore(sim, doc)).status).toBe(200);
    },
  );

  it('a market without its participants: 400 naming engine.state.entities', async () => {
    const { doc } = await setting();
    const plain = createSimulator({ clock: 'manual', startTime: '2026-01-01T00:00:00Z', eventLog: true });
    const bare = JSON.parse(JSON.stringify(plain.snapshot())) as Doc;
    bare.market = doc.market;
    const [state, log] = [await get(plain, '/_sim/state'), await get(plain, '/_sim/log')];
    const r = await restore(plain, bare);
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0]?.location).toBe('engine.state.entities');
    expect(r.body.message).toMatch(/must hold the market's participant noise-0001/);
    expect(await get(plain, '/_sim/state')).toBe(state);
    expect(await get(plain, '/_sim/log')).toBe(log);
  });
});

describe('preset names are the presets own, wherever a name is looked up', () => {
  it('constructor, toString and __proto__ are unknown names or keys, refused by name', () => {
    const refusal = (option: unknown) => {
      try {
        resolveMarket(option);
      } catch (err) {
        expect(err).toBeInstanceOf(MarketConfigError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal('constructor')).toBe('market must be one of calm, busy, one-sided; got "constructor"');
    expect(refusal({ preset: 'toString' })).toMatch(/^market\.preset must be one of calm, busy, one-sided/);
    // A JSON key `__proto__` is an own key like any other: named, not merged into the prototype.
    expect(refusal(JSON.parse('{"preset":"calm","__proto__":{"count":1}}'))).toBe(
      'market Unrecognized key: "__proto__"',
    );
  });
});
