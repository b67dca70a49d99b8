import { InvalidArgumentError, MatchVenue, usd, ValidationError } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClientOf } from '../../src/client/match-venue.js';
import { endpoints as operations } from '../../src/generated/endpoints.js';

const ORDER_ID = '10000000-0000-4000-8000-0000000000aa';

/** A client whose requests are recorded and answered 500 (no retries): only the request line matters. */
function recording() {
  const calls: string[] = [];
  const client = new MatchVenue({
    apiKey: SEEDED.burner.apiKey,
    maxRetries: 0,
    handler: async (req) => {
      const url = new URL(req.url);
      calls.push(`${req.method} ${url.pathname}${url.search}`);
      return new Response('{}', { status: 500 });
    },
  });
  return { client, calls };
}

const mint = {
  orderType: 'MINT' as const,
  amount: usd('100'),
  postFillAction: 'cancel' as const,
};

describe('resources send the operations of the endpoint table', () => {
  it('each method sends its operation: method and path from the table, path parameters filled', async () => {
    const { client, calls } = recording();
    const webhook = { endpoint: 'https://hooks.example.com/x', notificationTypes: ['*'] };
    const cases: [keyof typeof operations, () => Promise<unknown>, Record<string, string>?][] = [
      ['getAccount', () => client.account.retrieve()],
      ['placeOrder', () => client.orders.place(mint)],
      ['getOrder', () => client.orders.retrieve(ORDER_ID), { id: ORDER_ID }],
      ['cancelOrder', () => client.orders.cancel({ auctionId: 1, orderId: ORDER_ID })],
      ['cancelAllOrders', () => client.orders.cancelAll()],
      ['modifyOrder', () => client.orders.modify({ auctionId: 1, orderId: ORDER_ID, feeBps: null })],
      [
        'createWithdrawal',
        () => client.withdrawals.create({ amount: usd('5'), fiatAccountId: SEEDED.minter.fiatAccountId }),
      ],
      ['getConfiguration', () => client.configuration.retrieve()],
      ['createV1Subscription', () => client.snsSubscriptions.create({ endpoint: webhook.endpoint })],
      ['listV1Subscriptions', () => client.snsSubscriptions.list()],
      ['createWalletSubscription', () => client.webhookSubscriptions.create(webhook)],
      ['createFxSubscription', () => client.webhookSubscriptions.createFx(webhook)],
      [
        'getNotificationPublicKey',
        () => client.webhookSubscriptions.getPublicKey('key 1'),
        { keyId: 'key%201' },
      ],
    ];
    for (const [id, send, params = {}] of cases) {
      calls.length = 0;
      await send().catch(() => undefined);
      const def = operations[id];
      const path = def.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '');
      expect(calls, id).toEqual([`${def.method} ${path}`]);
    }
    calls.length = 0;
    await client.orders.list({ status: 'pending' }).catch(() => undefined);
    expect(calls).toEqual(['GET /v1/match/orders?page=1&pageSize=20&status=pending']);
  });

  it('endpoint(): a path parameter is one encoded segment, an empty one is refused before sending', async () => {
    const { client, calls } = recording();
    await apiClientOf(client)
      .endpoint(operations.getNotificationPublicKey, { params: { keyId: '../a/b?c' } })
      .catch(() => 0);
    expect(calls).toEqual(['GET /v2/notifications/publicKey/..%2Fa%2Fb%3Fc']);
    const empty = await apiClientOf(client)
      .endpoint(operations.deleteV1Subscription, { params: { id: '' } })
      .catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(InvalidArgumentError);
    expect((empty as Error).message).toBe('Path parameter 1 is empty in /v1/notifications/subscriptions/{}');
    expect(calls).toHaveLength(1);
  });

  it('endpoint(): a body is checked with the operation schema, naming the call, before sending', async () => {
    const { client, calls } = recording();
    const err = await apiClientOf(client)
      .endpoint(operations.cancelOrder, { context: 'cancel test', body: { auctionId: 1, orderId: 'x' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe('Invalid cancel test:\n  - orderId: must be a UUID');
    expect(calls).toEqual([]);
  });
});

describe('USD only: the SDK refuses another currency before sending, as the venue would', () => {
  const sim = createSimulator();
  afterAll(() => sim.close());

  it('an EUR order is a ValidationError naming amount.currency and the rule; nothing is sent', async () => {
    const { client, calls } = recording();
    const err = await client.orders
      .place({ ...mint, amount: { amount: '100.00', currency: 'EUR' as 'USD' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues).toEqual([
      { path: 'amount.currency', rule: 'must be USD', kind: 'invalid_value' },
    ]);
    expect((err as Error).message).toContain('amount.currency: must be USD');
    const withdrawal = await client.withdrawals
      .create({
        amount: { amount: '5.00', currency: 'EUR' as 'USD' },
        fiatAccountId: SEEDED.minter.fiatAccountId,
      })
      .catch((e: unknown) => e);
    expect((withdrawal as ValidationError).issues.map((i) => i.path)).toEqual(['amount.currency']);
    expect(calls).toEqual([]);
  });

  it('the simulator answers a raw EUR order as before: the same field and rule, 137010 first', async () => {
    const place = (apiKey: string) =>
      sim.handle(
        new Request('http://sim.localhost/v1/match/orders', {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            idempotencyKey: crypto.randomUUID(),
            ...mint,
            amount: { amount: '100.00', currency: 'EUR' },
          }),
        }),
      );
    const refused = await place(SEEDED.minter.apiKey);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      code: 2,
      message: 'Invalid request: amount.currency must be USD',
      errors: [
        { error: 'invalid_value', message: 'must be USD', location: 'amount.currency', invalidValue: 'EUR' },
      ],
    });
    expect(await (await place(SEEDED.ineligible.apiKey)).json()).toMatchObject({ code: 137010 });
  });
});
