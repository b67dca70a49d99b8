// The endpoint table decides what the pipeline may send again: an operation it marks not
// idempotent is re-sent only after an attempt that certainly never reached the server.
import { BadRequestError, ErrorCode, MatchVenue, OutcomeUnknownError } from 'match-venue';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drop, json, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'TEST_API_KEY:unit:supersecretvalue';
const ORDER = '5e1d0c3a-8f61-4c2b-9a47-0000000000d1';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

const client = () => new MatchVenue({ apiKey: KEY, baseUrl: server.url, retry: { sleep: async () => {} } });

const order = (status: string) => ({
  data: {
    orderId: ORDER,
    auctionId: 7,
    orderType: 'BURN',
    status,
    amount: { amount: '1000.00', currency: 'USD' },
    feeBps: '5',
    postFillAction: 'cancel',
    sourceWalletId: '10000000-0000-4000-8000-00000000a001',
    fiatAccountId: '10000000-0000-4000-8000-00000000f001',
    lineage: { parentOrderId: null, childOrderId: null },
    fill: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
  },
});

describe('re-sending decided by the endpoint table', () => {
  it('cancel-all (not idempotent) after a 502 is not sent again: OutcomeUnknownError naming the operation', async () => {
    server.script(json(502, {}), json(200, { data: { auctionId: 7, orderIds: [], status: 'cancelled' } }));
    const err = await client()
      .orders.cancelAll()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).operation).toBe('cancelAllOrders');
    expect((err as OutcomeUnknownError).idempotencyKey).toBeUndefined();
    expect(server.seen).toHaveLength(1);
  });

  it('cancel-all after a 429 (refused, not processed) is sent again', async () => {
    server.script(
      json(429, {}, { 'retry-after': '0' }),
      json(200, { data: { auctionId: 7, orderIds: [], status: 'cancelled' } }),
    );
    await expect(client().orders.cancelAll()).resolves.toEqual({
      auctionId: 7,
      orderIds: [],
      status: 'cancelled',
    });
    expect(server.seen).toHaveLength(2);
  });

  it('cancel (x-idempotent) after a dropped answer is sent again; a refusal then is settled from the order', async () => {
    server.script(
      drop,
      json(400, { code: ErrorCode.AuctionSettling, message: 'Auction settling' }),
      json(200, order('cancelled')),
    );
    const answer = await client().orders.cancel({ auctionId: 7, orderId: ORDER });
    expect(answer).toEqual({ auctionId: 7, orderId: ORDER, status: 'cancelled' });
    expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /v1/match/orders/cancel',
      'POST /v1/match/orders/cancel',
      `GET /v1/match/orders/${ORDER}`,
    ]);
  });

  it('cancel whose retry is refused while the order is still pending: the refusal stands', async () => {
    server.script(
      drop,
      json(400, { code: ErrorCode.AuctionSettling, message: 'Auction settling' }),
      json(200, order('pending')),
    );
    const err = await client()
      .orders.cancel({ auctionId: 7, orderId: ORDER })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).venueCode).toBe(ErrorCode.AuctionSettling);
  });

  it('place makes the idempotency key in the pipeline: one per call, the same on every attempt', async () => {
    server.script(json(503, {}), json(202, { data: { auctionId: 1, orderId: ORDER, status: 'pending' } }));
    await client()
      .orders.place({
        orderType: 'MINT',
        amount: { amount: '1000.00', currency: 'USD' },
        postFillAction: 'cancel',
      })
      .catch(() => undefined);
    const keys = server.seen.map((r) => (JSON.parse(r.body) as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});
