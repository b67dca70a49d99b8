import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BURNER, codeOf, type Driver, dataOf, MINTER, newDriver, type Reply } from './helpers.js';

const who = fc.constantFrom(BURNER, MINTER);
const fee = fc.option(
  fc.integer({ min: 0, max: 1000 }).map((c) => (c / 100).toString()),
  { nil: null },
);
const action = fc.constantFrom('roll', 'fallback', 'cancel');

const op = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      who,
      side: fc.constantFrom('BURN', 'MINT'),
      hundreds: fc.integer({ min: 1, max: 50 }),
      fee,
      action,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('replay' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), who }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('modify' as const), pick: fc.nat(), fee }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('clear' as const), settle: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('settle' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('phase' as const), phase: fc.constantFrom('open', 'lock') }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 12_000 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('withdraw' as const),
      who,
      cents: fc.integer({ min: 1, max: 300_000 }),
    }),
  },
  // Wires fund venue-only balances: the burner's MINT orders and withdrawals need one.
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('wire' as const),
      who,
      cents: fc.integer({ min: 1, max: 500_000 }),
    }),
  },
);

const decimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

interface Placed {
  apiKey: string;
  body: Record<string, unknown>;
  reply: Reply;
}

let seq = 0;
const uuid = () => {
  seq++;
  return `0000abcd-0000-4000-8000-${seq.toString(16).padStart(12, '0')}`;
};

async function run(d: Driver, ops: readonly unknown[]): Promise<void> {
  const placed: Placed[] = [];
  for (const raw of ops) {
    const o = raw as { kind: string } & Record<string, unknown>;
    switch (o.kind) {
      case 'place': {
        const w = o.who as typeof BURNER;
        const body: Record<string, unknown> = {
          idempotencyKey: uuid(),
          orderType: o.side,
          amount: { amount: `${(o.hundreds as number) * 100}.00`, currency: 'USD' },
          feeBps: o.fee,
          postFillAction: o.action,
        };
        if (o.side === 'BURN')
          Object.assign(body, { sourceWalletId: w.walletId, fiatAccountId: w.fiatAccountId });
        const reply = await d.call('POST', '/v1/match/orders', w.apiKey, body);
        expect([202, 400, 409]).toContain(reply.status);
        if (reply.status === 202) placed.push({ apiKey: w.apiKey, body, reply });
        break;
      }
      case 'replay': {
        const p = placed[(o.pick as number) % Math.max(1, placed.length)];
        if (!p) break;
        const again = await d.call('POST', '/v1/match/orders', p.apiKey, p.body);
        expect(again.text).toBe(p.reply.text);
        break;
      }
      case 'cancel': {
        const p = placed[(o.pick as number) % Math.max(1, placed.length)];
        if (!p) break;
        const { auctionId, orderId } = dataOf(p.reply) as { auctionId: number; orderId: string };
        const r = await d.call('POST', '/v1/match/orders/cancel', p.apiKey, { auctionId, orderId });
        expect([200, 400]).toContain(r.status);
        break;
      }
      case 'cancelAll':
        expect([200, 400]).toContain(
          (await d.call('POST', '/v1/match/orders/cancel-all', (o.who as typeof BURNER).apiKey)).status,
        );
        break;
      case 'modify': {
        const p = placed[(o.pick as number) % Math.max(1, placed.length)];
        if (!p) break;
        const { auctionId, orderId } = dataOf(p.reply) as { auctionId: number; orderId: string };
        const r = await d.call('POST', '/v1/match/orders/modify', p.apiKey, {
          auctionId,
          orderId,
          feeBps: o.fee,
        });
        expect([200, 400]).toContain(r.status);
        break;
      }
      case 'clear':
        expect((await d.call('POST', '/_sim/auctions/clear', null, { settle: o.settle })).status).toBe(200);
        break;
      case 'settle':
        expect((await d.call('POST', '/_sim/auctions/settle', null)).status).toBe(200);
        break;
      case 'phase':
        expect((await d.call('POST', '/_sim/phase', null, { phase: o.phase })).status).toBe(200);
        break;
      case 'advance':
        expect((await d.call('POST', '/_sim/clock/advance', null, { ms: o.ms })).status).toBe(200);
        break;
      case 'withdraw': {
        const w = o.who as typeof BURNER;
        const r = await d.call('POST', '/v1/match/withdrawals', w.apiKey, {
          idempotencyKey: uuid(),
          amount: { amount: decimal(o.cents as number), currency: 'USD' },
          fiatAccountId: w.fiatAccountId,
        });
        // Above the unreserved venue-only balance: 138001, and nothing held.
        if (r.status !== 201) expect(codeOf(r)).toBe(138001);
        break;
      }
      case 'wire': {
        const w = o.who as typeof BURNER;
        expect((await d.wire(w.entityId, decimal(o.cents as number))).status).toBe(200);
        break;
      }
    }
  }
}

describe('random sequences keep the books and idempotency', () => {
  it('invariants hold after every step (checked inside every call) and replays are byte-identical', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 5, maxLength: 40 }),
        fc.option(fc.double({ min: 0, max: 0.5, noNaN: true })),
        async (ops, failRate) => {
          const d = newDriver({ maxOrdersPerAuction: 8 });
          if (failRate !== null) d.sim.setFaults({ failSettlement: failRate });
          await run(d, ops);
          // Drain: everything resting clears and settles, payouts complete; the books still balance.
          await d.clear();
          await d.call('POST', '/_sim/clock/advance', null, { ms: 60_000 });
          const s = d.sim.getState();
          for (const e of s.entities) expect(e.withdrawalsHeld.amount).toBe('0.00');
          await d.sim.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});
