// A keyed create whose earlier attempt may still be in flight is never reported as refused.
// The faults are real: a loopback proxy reads an attempt's whole body, keeps it past the client's
// timeout and delivers it to the simulator later, as a congested network would.
import { BadRequestError, ConflictError, ErrorCode, MatchVenue, OutcomeUnknownError, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { startHoldingProxy } from '../helpers/holding-proxy.js';
import { noWait, proxiedSimulator } from '../helpers/proxied-simulator.js';

const rig = proxiedSimulator({ maxOrdersPerAuction: 1 });
const direct = (who: 'burner' | 'minter') =>
  new MatchVenue({ apiKey: SEEDED[who].apiKey, baseUrl: rig.running.url, retry: noWait });

/** A client behind a proxy that holds the first attempt carrying `key` and passes the rest. */
async function behindProxy(who: 'burner' | 'minter', key: string, path: string) {
  let first = true;
  rig.proxy = await startHoldingProxy(rig.running.url, (req) => {
    if (req.method !== 'POST' || req.path !== path || !req.body.includes(key) || !first) return false;
    first = false;
    return true;
  });
  return new MatchVenue({
    apiKey: SEEDED[who].apiKey,
    baseUrl: rig.proxy.url,
    timeout: 300,
    maxRetries: 1,
    retry: noWait,
  });
}

const burn = (idempotencyKey?: string) => ({
  ...(idempotencyKey ? { idempotencyKey } : {}),
  orderType: 'BURN' as const,
  amount: usd('1000'),
  feeBps: '5',
  postFillAction: 'cancel' as const,
  sourceWalletId: SEEDED.burner.walletId,
  fiatAccountId: SEEDED.burner.fiatAccountId,
});

describe('orders.place after an attempt with an unknown outcome', () => {
  it('a later refusal (137008, cap filled meanwhile) is OutcomeUnknownError, and resolveUnknown finds the order that landed', async () => {
    const key = '5e1d0c3a-8f61-4c2b-9a47-0000000000a1';
    await direct('burner').orders.place(burn()); // fills the per-auction cap of 1
    const venue = await behindProxy('burner', key, '/v1/match/orders');

    const err = await venue.orders.place(burn(key)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    const unknown = err as OutcomeUnknownError;
    expect(unknown.idempotencyKey).toBe(key);
    expect(unknown.orderId).toBe(key);
    expect(unknown.attempts).toBe(2);
    // The refusal the retry met stays visible as the cause.
    expect(unknown.cause).toBeInstanceOf(BadRequestError);
    expect((unknown.cause as BadRequestError).venueCode).toBe(ErrorCode.MaxOrdersPerAuction);

    // The held first attempt arrives after the auction cleared and lands in the next one.
    rig.sim.clearAuction();
    expect(await rig.proxy?.release()).toEqual([202]);
    const landed = await direct('burner').orders.resolveUnknown(unknown);
    expect(landed.status).toBe('found');
    const order = landed.status === 'found' ? landed.order : undefined;
    expect(order?.orderId).toBe(key);
    expect(order?.auctionId).toBe(2);
    expect(order?.status).toBe('pending');
  });

  it('resolveUnknown answers "absent for now" while the order has not landed, and the same key then places it once', async () => {
    const key = '5e1d0c3a-8f61-4c2b-9a47-0000000000a2';
    await direct('burner').orders.place(burn());
    const venue = await behindProxy('burner', key, '/v1/match/orders');
    const err = (await venue.orders.place(burn(key)).catch((e: unknown) => e)) as OutcomeUnknownError;
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(await direct('burner').orders.resolveUnknown(err)).toEqual({
      status: 'absent',
      final: false,
      settlesAt: err.settlesAt,
    });

    rig.sim.clearAuction();
    const placed = await direct('burner').orders.place(burn(key));
    expect(placed).toEqual({ auctionId: 2, orderId: key, status: 'pending' });
    // The late first attempt is a replay of the same key: still one order.
    expect(await rig.proxy?.release()).toEqual([202]);
    const mine = await direct('burner').orders.list({ orderId: key });
    expect(mine.pagination.total).toBe(1);
  });

  it('an answer about the key itself (409 137004) stays definite', async () => {
    const key = '5e1d0c3a-8f61-4c2b-9a47-0000000000a3';
    const venue = await behindProxy('burner', key, '/v1/match/orders');
    // Another request took the key while the first attempt was held.
    await direct('burner').orders.place({ ...burn(key), amount: usd('2000') });
    const err = await venue.orders.place(burn(key)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).venueCode).toBe(ErrorCode.IdempotencyKeyReused);
  });

  it('a refusal with no earlier unknown attempt stays definite', async () => {
    await direct('burner').orders.place(burn());
    const err = await direct('burner')
      .orders.place(burn())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).venueCode).toBe(ErrorCode.MaxOrdersPerAuction);
  });
});

describe('withdrawals.create after an attempt with an unknown outcome', () => {
  it('a later refusal (138001) is OutcomeUnknownError; resolveUnknown returns the withdrawal that landed', async () => {
    const key = '5e1d0c3a-8f61-4c2b-9a47-0000000000b1';
    const minter = direct('minter');
    const venue = await behindProxy('minter', key, '/v1/match/withdrawals');
    const params = { idempotencyKey: key, amount: usd('100'), fiatAccountId: SEEDED.minter.fiatAccountId };

    // Ten payouts in flight hold the whole prefunded venue-only balance: the retry that gets
    // through is refused.
    for (let i = 0; i < 10; i++)
      await minter.withdrawals.create({
        amount: usd('10000000'),
        fiatAccountId: SEEDED.minter.fiatAccountId,
      });
    const err = await venue.withdrawals.create(params).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    const unknown = err as OutcomeUnknownError;
    expect(unknown.operation).toBe('createWithdrawal');
    expect((unknown.cause as BadRequestError).venueCode).toBe(ErrorCode.WithdrawalExceedsBalance);

    // A wire tops the venue-only balance up; then the held first attempt arrives and lands.
    rig.sim.wire({ entityId: SEEDED.minter.entityId, amount: usd('1000') });
    expect(await rig.proxy?.release()).toEqual([201]);

    const settled = await minter.withdrawals.resolveUnknown(unknown);
    expect(settled).toMatchObject({ status: 'found', withdrawal: { id: key, status: 'pending' } });
  });
});
