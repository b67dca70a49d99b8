// A key whose attempt had an unknown outcome stays unknown across calls until it is settled: the
// README's recovery recipe (resolveUnknown says absent, place again with the same key) must never
// end in a refusal the bot takes for definite while the first attempt can still land. The faults
// are real: a loopback proxy keeps the first attempt past the client's timeout and delivers it
// after the auction cleared, where it lands in the next auction.
import { BadRequestError, ErrorCode, MatchVenue, OutcomeUnknownError, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { apiClientOf } from '../../src/client/match-venue.js';
import { UnknownKeys } from '../../src/core/unknown-keys.js';
import { startHoldingProxy } from '../helpers/holding-proxy.js';
import { noWait, proxiedSimulator } from '../helpers/proxied-simulator.js';

const rig = proxiedSimulator({ maxOrdersPerAuction: 1 });
const KEY = '6a2f0c3a-8f61-4c2b-9a47-0000000000c1';

const burn = (idempotencyKey?: string) => ({
  ...(idempotencyKey ? { idempotencyKey } : {}),
  orderType: 'BURN' as const,
  amount: usd('1000'),
  feeBps: '5',
  postFillAction: 'cancel' as const,
  sourceWalletId: SEEDED.burner.walletId,
  fiatAccountId: SEEDED.burner.fiatAccountId,
});

/** A burner client behind a proxy that holds the first attempt carrying KEY and passes the rest. */
async function bot(options: { settleWindowMs?: number; now?: () => number } = {}) {
  let first = true;
  rig.proxy = await startHoldingProxy(rig.running.url, (req) => {
    if (req.method !== 'POST' || !req.body.includes(KEY) || !first) return false;
    first = false;
    return true;
  });
  return new MatchVenue({
    apiKey: SEEDED.burner.apiKey,
    baseUrl: rig.proxy.url,
    timeout: 300,
    maxRetries: 1,
    settleWindowMs: options.settleWindowMs,
    retry: { ...noWait, ...(options.now ? { now: options.now } : {}) },
  });
}

const other = () => new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: rig.running.url, retry: noWait });

/** The cap of 1 is full, then the bot's place: its first attempt held, its retry refused 137008. */
async function uncertainPlace(venue: MatchVenue): Promise<OutcomeUnknownError> {
  await other().orders.place(burn());
  const err = await venue.orders.place(burn(KEY)).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(OutcomeUnknownError);
  return err as OutcomeUnknownError;
}

describe('the README recovery recipe under a held first attempt', () => {
  it('absent for now, then the same key placed again: the refusal is not definite, and the held attempt lands', async () => {
    const venue = await bot();
    const err = await uncertainPlace(venue);
    const resolved = await venue.orders.resolveUnknown(err);
    expect(resolved).toEqual({ status: 'absent', final: false, settlesAt: err.settlesAt });

    // Placing again with the same key meets the full cap again. Before, this was a definite 400
    // 137008 while the first attempt was still on its way: a false refusal.
    const again = await venue.orders.place(burn(KEY)).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(OutcomeUnknownError);
    expect((again as OutcomeUnknownError).cause).toBeInstanceOf(BadRequestError);
    expect(((again as OutcomeUnknownError).cause as BadRequestError).venueCode).toBe(
      ErrorCode.MaxOrdersPerAuction,
    );

    // The held attempt arrives after the clear and lands in auction 2.
    rig.sim.clearAuction();
    expect(await rig.proxy?.release()).toEqual([202]);
    const found = await venue.orders.resolveUnknown(again as OutcomeUnknownError);
    expect(found).toMatchObject({
      status: 'found',
      order: { orderId: KEY, auctionId: 2, status: 'pending' },
    });
    // An answer about the key settles it: a refusal of that key is definite again.
    expect(apiClientOf(venue).unknownKeys.get(KEY)).toBeUndefined();
  });

  it('another client that resolved the error treats the key as unknown too', async () => {
    const venue = await bot();
    const err = await uncertainPlace(venue);
    const second = other();
    expect(await second.orders.resolveUnknown(err)).toMatchObject({ status: 'absent', final: false });
    const again = await second.orders.place(burn(KEY)).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(OutcomeUnknownError);
  });

  it('once the settle window has passed, the absence is final and a refusal is definite', async () => {
    let now = Date.now();
    const venue = await bot({ settleWindowMs: 5_000, now: () => now });
    const err = await uncertainPlace(venue);
    expect(err.settlesAt.getTime()).toBe(now + 5_000);
    now += 5_001;
    expect(await venue.orders.resolveUnknown(err)).toEqual({ status: 'absent', final: true });
    const again = await venue.orders.place(burn(KEY)).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(BadRequestError);
    expect((again as BadRequestError).venueCode).toBe(ErrorCode.MaxOrdersPerAuction);
  });

  it('{ wait: true } waits the window out and answers with what landed meanwhile', async () => {
    const venue = await bot({ settleWindowMs: 400 });
    const err = await uncertainPlace(venue);
    rig.sim.clearAuction();
    setTimeout(() => void rig.proxy?.release(), 100);
    const resolved = await venue.orders.resolveUnknown(err, { wait: true });
    expect(resolved).toMatchObject({ status: 'found', order: { orderId: KEY, auctionId: 2 } });
  });

  it('{ wait: true } with nothing landing answers a final absence after the window, and no earlier', async () => {
    const venue = await bot({ settleWindowMs: 300 });
    const err = await uncertainPlace(venue);
    const resolved = await venue.orders.resolveUnknown(err, { wait: true });
    expect(resolved).toEqual({ status: 'absent', final: true });
    expect(Date.now()).toBeGreaterThanOrEqual(err.settlesAt.getTime());
  });

  it('{ wait: true } is cut short by its signal', async () => {
    const venue = await bot({ settleWindowMs: 60_000 });
    const err = await uncertainPlace(venue);
    const signal = AbortSignal.timeout(50);
    const aborted = await venue.orders.resolveUnknown(err, { wait: true, signal }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe('APIUserAbortError');
  });
});

describe('the ledger of unknown keys', () => {
  it('is bounded: past maxUnknownKeys the oldest key is forgotten', () => {
    const venue = new MatchVenue({
      apiKey: SEEDED.burner.apiKey,
      baseUrl: rig.running.url,
      maxUnknownKeys: 2,
    });
    apiClientOf(venue).unknownKeys.markAmbiguous('a', 'placeOrder', {});
    apiClientOf(venue).unknownKeys.markAmbiguous('b', 'placeOrder', {});
    apiClientOf(venue).unknownKeys.markAmbiguous('c', 'placeOrder', {});
    expect(
      apiClientOf(venue)
        .unknownKeys.list()
        .map((e) => e.key),
    ).toEqual(['b', 'c']);
  });

  it('refuses options out of range, naming them', () => {
    const make = (o: object) => () =>
      new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: rig.running.url, ...o });
    expect(make({ settleWindowMs: -1 })).toThrow(/settleWindowMs must be a non-negative number/);
    expect(make({ maxUnknownKeys: 0 })).toThrow(/maxUnknownKeys must be a positive integer/);
  });
});

describe('the settle deadline', () => {
  it('is computed in one place: a remembered key and a keyless call get the same one', () => {
    let now = 1_000;
    const keys = new UnknownKeys({ settleWindowMs: 250, maxKeys: 5, now: () => now });
    expect(keys.settlesAt()).toBe(1_250);
    expect(keys.markAmbiguous('k', 'placeOrder', {}).settlesAt).toBe(keys.settlesAt());
    now = 2_000;
    expect(keys.settlesAt(1_500)).toBe(1_750);
    expect(keys.remember('j', 'placeOrder', {}, keys.settlesAt())?.lastAttemptAt).toBe(2_000);
  });
});
