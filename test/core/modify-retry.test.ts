// orders.modify is safe to retry in the lock window, where the venue refuses an unchanged fee
// (137005): a retry whose earlier attempt landed meets exactly that refusal. The faults are real: a
// loopback proxy lets an attempt reach the simulator and loses its answer, so the client times out.
import { APIConnectionError, BadRequestError, ErrorCode, MatchVenue, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Handling, startHoldingProxy } from '../helpers/holding-proxy.js';
import { noWait, proxiedSimulator } from '../helpers/proxied-simulator.js';
import { json, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';

const rig = proxiedSimulator();
const MODIFY = '/v1/match/orders/modify';
const direct = () =>
  new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: rig.running.url, retry: noWait });

/** A burner client behind a proxy that handles the first modify attempt with `first`. */
async function behindProxy(first: Handling, onFirst: () => void = () => {}) {
  let seen = false;
  rig.proxy = await startHoldingProxy(rig.running.url, (req) => {
    if (req.method !== 'POST' || req.path !== MODIFY || seen) return false;
    seen = true;
    onFirst();
    return first;
  });
  return new MatchVenue({
    apiKey: SEEDED.burner.apiKey,
    baseUrl: rig.proxy.url,
    timeout: 300,
    maxRetries: 1,
    retry: noWait,
  });
}

/** A resting BURN at 5 bps in auction 1, then the lock window. */
async function lockedBurnAt5() {
  const placed = await direct().orders.place({
    orderType: 'BURN',
    amount: usd('1000'),
    feeBps: '5',
    postFillAction: 'cancel',
    sourceWalletId: SEEDED.burner.walletId,
    fiatAccountId: SEEDED.burner.fiatAccountId,
  });
  rig.sim.setPhase('lock');
  return { auctionId: placed.auctionId, orderId: placed.orderId };
}

const modifies = () => (rig.proxy?.forwarded ?? []).filter((f) => f.path === MODIFY);
const reads = () => (rig.proxy?.forwarded ?? []).filter((f) => f.method === 'GET');

describe('orders.modify retried in the lock window', () => {
  it('the first attempt landed and its answer was lost: the retry meets 137005, the order is read, the call resolves', async () => {
    const order = await lockedBurnAt5();
    const venue = await behindProxy('lose-answer');

    const { data, response } = await venue.orders.modify({ ...order, feeBps: '4' }).withResponse();

    expect(data).toEqual({ auctionId: order.auctionId, orderId: order.orderId, status: 'pending' });
    expect(response.status).toBe(200);
    // What happened on the wire: the lost 200, the retry's refusal, then one read of the order.
    expect(modifies().map((f) => [f.status, f.lost])).toEqual([
      [200, true],
      [400, false],
    ]);
    expect(reads().map((f) => [f.path, f.status])).toEqual([[`/v1/match/orders/${order.orderId}`, 200]]);
    expect(await direct().orders.retrieve(order.orderId)).toMatchObject({ feeBps: '4', status: 'pending' });
  });

  it('the first attempt never arrived and the fee really differs: the 137005 stands', async () => {
    const order = await lockedBurnAt5();
    const venue = await behindProxy(true);

    const err = await venue.orders.modify({ ...order, feeBps: '6' }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).status).toBe(400);
    expect((err as BadRequestError).venueCode).toBe(ErrorCode.FeeChangeNotMoreCompetitive);
    // The order was read and is still at 5 bps.
    expect(reads()).toHaveLength(1);
    expect((await direct().orders.retrieve(order.orderId)).feeBps).toBe('5');
  });

  it('the first attempt landed, the retry meets 137005 and the read of the order times out: not a refusal, the outcome is unknown', async () => {
    const order = await lockedBurnAt5();
    let modifySeen = false;
    rig.proxy = await startHoldingProxy(rig.running.url, (req) => {
      if (req.method === 'GET') return true; // every read of the order goes unanswered
      if (req.path !== MODIFY || modifySeen) return false;
      modifySeen = true;
      return 'lose-answer';
    });
    const venue = new MatchVenue({
      apiKey: SEEDED.burner.apiKey,
      baseUrl: rig.proxy.url,
      timeout: 300,
      maxRetries: 1,
      retry: noWait,
    });

    const err = await venue.orders.modify({ ...order, feeBps: '4' }).catch((e: unknown) => e);

    // The modify did land: a BadRequestError 137005 would tell the bot its fee change was refused.
    expect((await direct().orders.retrieve(order.orderId)).feeBps).toBe('4');
    expect(err).not.toBeInstanceOf(BadRequestError);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as APIConnectionError).kind).toBe('MV_CONNECTION');
    expect((err as Error).message).toContain('137005');
    expect((err as Error).message).toContain('outcome is unknown');
    expect(modifies().map((f) => [f.status, f.lost])).toEqual([
      [200, true],
      [400, false],
    ]);
  });

  it('a 137005 on the first attempt is returned as is, without reading the order', async () => {
    const order = await lockedBurnAt5();
    const venue = await behindProxy(false);

    const err = await venue.orders.modify({ ...order, feeBps: '5' }).catch((e: unknown) => e);

    expect((err as BadRequestError).venueCode).toBe(ErrorCode.FeeChangeNotMoreCompetitive);
    expect(modifies().map((f) => f.status)).toEqual([400]);
    expect(reads()).toEqual([]);
  });

  it('another refusal after an ambiguous attempt (136002: the auction cleared meanwhile) stands without a read', async () => {
    const order = await lockedBurnAt5();
    // The first attempt is held; the auction clears before the retry.
    const venue = await behindProxy(true, () => rig.sim.clearAuction());

    const err = await venue.orders.modify({ ...order, feeBps: '4' }).catch((e: unknown) => e);

    expect((err as BadRequestError).venueCode).toBe(ErrorCode.AuctionSettling);
    expect(reads()).toEqual([]);
  });
});

describe('orders.modify after a 5xx', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const orderId = '5e1d0c3a-8f61-4c2b-9a47-0000000000b1';
  const order = (feeBps: string | null) => ({
    orderId,
    auctionId: 7,
    orderType: 'BURN',
    amount: { amount: '1000.00', currency: 'USD' },
    feeBps,
    postFillAction: 'cancel',
    status: 'pending',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
    fill: null,
    lineage: { parentOrderId: null, childOrderId: null },
    sourceWalletId: SEEDED.burner.walletId,
    fiatAccountId: SEEDED.burner.fiatAccountId,
  });
  const refused = json(400, { code: 137005, message: 'Fee change not more competitive during lock window' });
  const venue = () =>
    new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: server.url, maxRetries: 1, retry: noWait });

  it('503 then 137005, and the order holds the requested fee written another way: resolves', async () => {
    server.script(
      json(503, { code: -1, message: 'unavailable' }),
      refused,
      json(200, { data: order('4.00') }),
    );
    const result = await venue().orders.modify({ auctionId: 7, orderId, feeBps: '4' });
    expect(result).toEqual({ auctionId: 7, orderId, status: 'pending' });
    expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${MODIFY}`,
      `POST ${MODIFY}`,
      `GET /v1/match/orders/${orderId}`,
    ]);
  });

  it('503 then 137005, and the order is a market order while a limit was asked: the 137005 stands', async () => {
    server.script(json(503, { code: -1, message: 'unavailable' }), refused, json(200, { data: order(null) }));
    const err = await venue()
      .orders.modify({ auctionId: 7, orderId, feeBps: '4' })
      .catch((e: unknown) => e);
    expect((err as BadRequestError).venueCode).toBe(ErrorCode.FeeChangeNotMoreCompetitive);
  });

  it('503 then 137005, and the read fails: the outcome is unknown (APIConnectionError, the read as cause), not the 137005', async () => {
    server.script(
      json(503, { code: -1, message: 'unavailable' }),
      refused,
      json(404, { code: 156003, message: 'Order not found' }),
    );
    const err = await venue()
      .orders.modify({ auctionId: 7, orderId, feeBps: '4' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).not.toBeInstanceOf(BadRequestError);
    expect((err as Error).message).toContain('outcome is unknown');
    expect(((err as Error).cause as { status?: number }).status).toBe(404);
  });
});
