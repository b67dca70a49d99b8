import { createSimulator, type SimulatorEvent, SEEDED } from 'match-venue/simulator';
import { VenueEngine } from '../../src/simulator/engine/engine.js';
import { describe, expect, it } from 'vitest';
import { BURNER, Driver } from './helpers.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');

function place(
  engine: VenueEngine,
  who: { entityId: string; walletId: string; fiatAccountId: string },
  orderType: 'BURN' | 'MINT',
  n: number,
) {
  return engine.placeOrder(who.entityId, {
    idempotencyKey: `00000000-0000-4000-8000-${(0xe0000 + n).toString(16).padStart(12, '0')}`,
    orderType,
    amount: { amount: '100.00', currency: 'USD' },
    feeBps: '5',
    postFillAction: 'roll',
    sourceWalletId: orderType === 'BURN' ? who.walletId : null,
    fiatAccountId: orderType === 'BURN' ? who.fiatAccountId : null,
  });
}

describe('events are built for whoever reads them', () => {
  it('the engine asks wantsEvents: no market event and no account event of an entity nobody reads', () => {
    const seen: SimulatorEvent[] = [];
    const asked: Array<string | undefined> = [];
    const engine = new VenueEngine({
      now: () => START,
      onEvent: (e) => seen.push(e),
      wantsEvents: (entityId) => {
        asked.push(entityId);
        return entityId === SEEDED.burner.entityId;
      },
    });
    place(engine, SEEDED.burner, 'BURN', 1);
    place(engine, SEEDED.minter, 'MINT', 2);
    engine.clear();
    expect(asked).toContain(undefined);
    expect(asked).toContain(SEEDED.minter.entityId);
    expect(seen.every((e) => e.channel === 'account' && e.entityId === SEEDED.burner.entityId)).toBe(true);
    expect(seen.map((e) => e.event)).toEqual([
      'order.accepted',
      'balance.updated',
      'order.updated',
      'order.updated',
      'balance.updated',
    ]);
    // Order events carry the Order as it was at the event, also when read after it changed.
    const [accepted, settling, filled] = seen.filter((e) => e.event !== 'balance.updated');
    expect(accepted?.data).toMatchObject({ status: 'pending', fill: null });
    expect(settling?.data).toMatchObject({
      status: 'settling',
      fill: { filledAmount: { amount: '100.00' } },
    });
    expect(filled?.data).toMatchObject({ status: 'filled' });
    expect(JSON.parse(JSON.stringify(accepted))).toMatchObject({
      event: 'order.accepted',
      data: { status: 'pending' },
    });
    // Balance events too: the first one (after the placement) still shows the amount reserved.
    const [placedBalance] = seen.filter((e) => e.event === 'balance.updated');
    expect(placedBalance?.data).toMatchObject({ stablecoin: { reserved: { amount: '100.00' } } });
    // Once read, data is an own property: the event spreads and compares like a plain object.
    expect({ ...accepted }).toEqual({
      channel: 'account',
      entityId: SEEDED.burner.entityId,
      event: 'order.accepted',
      data: accepted?.data,
    });
  });

  it('an engine without onEvent builds none; with onEvent and no wantsEvents, every one', () => {
    const every: SimulatorEvent[] = [];
    const engine = new VenueEngine({ now: () => START, onEvent: (e) => every.push(e) });
    place(engine, SEEDED.burner, 'BURN', 1);
    engine.clear();
    expect(every.map((e) => e.event)).toContain('auction.cleared');
    const quiet = new VenueEngine({ now: () => START });
    place(quiet, SEEDED.burner, 'BURN', 1);
    expect(quiet.clear()).toMatchObject({ auctionId: 1, orderCount: 1 });
  });

  it('with no listener, the webhook subscription of one entity still gets its account events', async () => {
    const posts: Array<{ type: string; orderId?: string }> = [];
    const sim = createSimulator({
      clock: 'manual',
      fetch: async (_url, init) => {
        if (init?.method === 'POST') {
          const body = JSON.parse(String(init.body)) as {
            notificationType: string;
            notification: { orderId?: string };
          };
          posts.push({ type: body.notificationType, orderId: body.notification.orderId });
        }
        return new Response(null, { status: 200 });
      },
    });
    const driver = new Driver(sim);
    const created = await driver.call('POST', '/v2/notifications/subscriptions', BURNER.apiKey, {
      endpoint: 'https://hooks.example.test/venue',
      notificationTypes: ['order.*'],
    });
    expect(created.status).toBe(201);
    const burn = await driver.placed(driver.burn('100.00', { feeBps: '5' }));
    await driver.placed(driver.mint('100.00', { feeBps: '5' }));
    await driver.clear();
    await sim.platform.idle();
    // The burner's order events reach its endpoint; the minter, with no subscription, gets nothing.
    expect(posts.map((p) => `${p.type} ${p.orderId === burn}`)).toEqual([
      'order.accepted true',
      'order.updated true',
      'order.updated true',
    ]);
    expect(sim.platform.deliveries().every((r) => r.kind === 'v2-notification')).toBe(true);
    await sim.close();
  });
});
