/**
 * Client and simulator run the same generated checks: a body the client refuses before sending
 * (ValidationError, nothing sent) is refused by the simulator, when sent raw over HTTP, naming the
 * same fields with the same rules and kinds (400 code 2, `errors[]`). The client names an issue
 * about the whole body by the empty path, the venue's answer by `body`.
 */
import { MatchVenue, ValidationError } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { endpoints, type OperationId } from '../../src/generated/endpoints.js';

const KEY = '3b241101-e2bb-4255-8caf-4136c566a962';
const sim = createSimulator();
afterAll(() => sim.close());

const sent: string[] = [];
const client = new MatchVenue({
  apiKey: SEEDED.minter.apiKey,
  maxRetries: 0,
  handler: async (req) => {
    sent.push(`${req.method} ${new URL(req.url).pathname}`);
    return sim.handle(req);
  },
});

type Refusal = { field: string; rule: string; kind: string };

async function clientRefusal(call: () => Promise<unknown>): Promise<Refusal[]> {
  sent.length = 0;
  const err = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  expect(sent).toEqual([]);
  return (err as ValidationError).issues.map((i) => ({ field: i.path, rule: i.rule, kind: i.kind }));
}

async function simulatorRefusal(op: OperationId, body: unknown): Promise<Refusal[]> {
  const { method, path } = endpoints[op];
  const res = await sim.handle(
    new Request(`http://sim.test${path}`, {
      method,
      headers: { authorization: `Bearer ${SEEDED.minter.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  const answer = (await res.json()) as {
    code: number;
    errors: { location: string; message: string; error: string }[];
  };
  expect(res.status).toBe(400);
  expect(answer.code).toBe(2);
  return answer.errors.map((e) => ({
    field: e.location === 'body' ? '' : e.location,
    rule: e.message,
    kind: e.error,
  }));
}

const mint = {
  orderType: 'MINT',
  amount: { amount: '100.00', currency: 'USD' },
  postFillAction: 'cancel',
} as const;

describe('client and simulator refuse the same bad bodies alike', () => {
  it.each<[string, OperationId, Record<string, unknown>, () => Promise<unknown>]>([
    [
      'an order amount off the hundreds',
      'placeOrder',
      { ...mint, amount: { amount: '150.00', currency: 'USD' } },
      () => client.orders.place({ ...mint, amount: { amount: '150.00', currency: 'USD' } }),
    ],
    [
      'a misspelt order key and a bad action',
      'placeOrder',
      { ...mint, postFillAction: 'keep', feeBPS: '5' },
      () => client.orders.place({ ...mint, postFillAction: 'keep', feeBPS: '5' } as never),
    ],
    [
      'an unknown orderType',
      'placeOrder',
      { ...mint, orderType: 'SWAP' },
      () => client.orders.place({ ...mint, orderType: 'SWAP' } as never),
    ],
    [
      'an order in EUR (refused by the engine after eligibility, in the same words)',
      'placeOrder',
      { ...mint, amount: { amount: '100.00', currency: 'EUR' } },
      () => client.orders.place({ ...mint, amount: { amount: '100.00', currency: 'EUR' as 'USD' } }),
    ],
    [
      'an order whose currency is null (refused by the route: the engine only sees text)',
      'placeOrder',
      { ...mint, amount: { amount: '100.00', currency: null } },
      () =>
        client.orders.place({ ...mint, amount: { amount: '100.00', currency: null as unknown as 'USD' } }),
    ],
    [
      'a cancel with a fraction and a non-UUID',
      'cancelOrder',
      { auctionId: 1.5, orderId: 'x' },
      () => client.orders.cancel({ auctionId: 1.5, orderId: 'x' }),
    ],
    [
      'a modify without feeBps',
      'modifyOrder',
      { auctionId: 1, orderId: KEY },
      () => client.orders.modify({ auctionId: 1, orderId: KEY } as never),
    ],
    [
      'a v1 subscription on plain http',
      'createV1Subscription',
      { endpoint: 'http://hooks.example.com/x' },
      () => client.snsSubscriptions.create({ endpoint: 'http://hooks.example.com/x' }),
    ],
    [
      'a v2 subscription with credentials and an empty type',
      'createWalletSubscription',
      { endpoint: 'https://u:p@hooks.example.com', notificationTypes: [''] },
      () =>
        client.webhookSubscriptions.create({
          endpoint: 'https://u:p@hooks.example.com',
          notificationTypes: [''],
        }),
    ],
  ])('%s', async (_name, op, raw, call) => {
    const body = endpoints[op].keyed ? { idempotencyKey: KEY, ...raw } : raw;
    const fromClient = await clientRefusal(call);
    expect(fromClient.length).toBeGreaterThan(0);
    expect(await simulatorRefusal(op, body)).toEqual(fromClient);
  });
});
