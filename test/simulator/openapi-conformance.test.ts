/**
 * Issue 18 point 4: the simulator's answers checked against the shipped OpenAPI as other tools
 * read it (./openapi-document.ts: swagger-parser and Ajv, standard keywords only). Every operation
 * is driven with valid and invalid inputs; each answer must carry a status the document lists for
 * the operation and a body its schema for that status accepts, and each input the simulator
 * refuses must be refused by the document's own request schemas (or media types) as well.
 */
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaType, OpenApiDocument } from './openapi-document.js';

const { burner: BURNER, minter: MINTER } = SEEDED;
const JSON_TYPE = 'application/json';
const NOT_A_UUID = 'not-a-uuid';
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** What the document must refuse of an input the simulator refuses. */
type Refused = 'body' | 'params' | 'media type' | 'no body' | 'from after to' | 'credential' | 'state';

interface Case {
  op: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Content-Type of the body; JSON by default. */
  type?: string;
  key?: string;
  status: number;
  refused?: Refused;
}

let doc: OpenApiDocument;
let sim: Simulator;
const confirmations: string[] = [];
/** operationId -> statuses answered and checked. */
const seen = new Map<string, Set<number>>();

beforeAll(async () => {
  doc = await OpenApiDocument.load();
  // Subscriber endpoints answer every HEAD and POST; v1 confirmation messages are kept to confirm.
  const fetchStub = (async (_input: string | URL | Request, init?: RequestInit) => {
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const message = JSON.parse(init.body) as { Type?: string; SubscribeURL?: string };
      if (message.Type === 'SubscriptionConfirmation' && message.SubscribeURL)
        confirmations.push(message.SubscribeURL);
    }
    return new Response(null, { status: 200 });
  }) as typeof fetch;
  sim = createSimulator({ fetch: fetchStub });
});
afterAll(async () => {
  await sim?.close();
});

function target(c: Case): { method: string; url: string } {
  const { method, path } = doc.get(c.op);
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(c.params?.[name] ?? ''));
  const query = c.query ? `?${new URLSearchParams(c.query)}` : '';
  return { method, url: `http://sim.test${filled}${query}` };
}

/** Sends the case to `on`, then holds the answer to the document; returns the parsed body. */
async function check(c: Case, on: Simulator = sim): Promise<unknown> {
  const { method, url } = target(c);
  const headers: Record<string, string> = { authorization: `Bearer ${c.key ?? BURNER.apiKey}` };
  let body: string | undefined;
  if (c.body !== undefined) {
    body = typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
    headers['content-type'] = c.type ?? JSON_TYPE;
  }
  const res = await on.handle(new Request(url, { method, headers, body: body ?? null }));
  const text = await res.text();
  const label = `${c.op} ${method} ${url} -> ${res.status} ${text.slice(0, 300)}`;
  expect(res.status, label).toBe(c.status);
  expect(doc.answerProblems(c.op, res.status, res.headers, text), label).toEqual([]);
  if (!seen.has(c.op)) seen.set(c.op, new Set());
  seen.get(c.op)?.add(res.status);
  if (c.refused) expect(documentRefuses(c), `the document refuses ${label}`).toBe(true);
  return text ? JSON.parse(text) : undefined;
}

/** The document's own standard keywords (or its media types) refuse the case's input too. */
function documentRefuses(c: Case): boolean {
  switch (c.refused) {
    case 'body':
      return !doc.acceptsBody(c.op, c.body);
    case 'params':
      return !doc.acceptsParams(c.op, { ...c.params, ...c.query });
    case 'media type':
      return !doc.requestMediaTypes(c.op).includes(mediaType(c.type ?? JSON_TYPE));
    case 'no body':
      return doc.requestMediaTypes(c.op).length === 0;
    case 'from after to':
      // The one rule JSON Schema cannot state: it compares two values. The document states it in
      // the parameter's words; its standard keywords accept each value on its own.
      return (
        doc.acceptsParams(c.op, c.query ?? {}) &&
        /must not be earlier than `from`/.test(JSON.stringify(doc.get(c.op).operation.parameters))
      );
    default:
      // Credentials and the venue's state (balances, ids, phases) are no request schema's to judge.
      return true;
  }
}

const burn = (idempotencyKey: string, amount = '100.00') => ({
  idempotencyKey,
  orderType: 'BURN',
  amount: { amount, currency: 'USD' },
  postFillAction: 'cancel',
  sourceWalletId: BURNER.walletId,
  fiatAccountId: BURNER.fiatAccountId,
});
const withdrawal = (idempotencyKey: string, amount = '250.00') => ({
  idempotencyKey,
  amount: { amount, currency: 'USD' },
  fiatAccountId: MINTER.fiatAccountId,
});

describe('the simulator against the shipped OpenAPI', () => {
  it('venue: account, orders, withdrawals, tickets', async () => {
    const placed = uuid(1);
    const cases: Case[] = [
      { op: 'getAccount', status: 200 },
      { op: 'getAccount', key: SEEDED.noaccount.apiKey, status: 404, refused: 'state' },
      { op: 'getAccount', key: SEEDED.ineligible.apiKey, status: 400, refused: 'state' },
      { op: 'getAccount', key: 'TEST_API_KEY:nobody:secret', status: 401, refused: 'credential' },
      { op: 'getAccount', key: 'not a key', status: 401, refused: 'credential' },
      { op: 'placeOrder', body: burn(placed), status: 202 },
      { op: 'placeOrder', body: burn(placed), status: 202 },
      { op: 'placeOrder', body: burn(placed, '200.00'), status: 409, refused: 'state' },
      ...['0', '50', '150', '100.50', '100.001', '-100', '1e3'].map(
        (amount, i): Case => ({
          op: 'placeOrder',
          body: burn(uuid(10 + i), amount),
          status: 400,
          refused: 'body',
        }),
      ),
      {
        op: 'placeOrder',
        body: { ...burn(uuid(20)), postFillAction: undefined },
        status: 400,
        refused: 'body',
      },
      {
        op: 'placeOrder',
        body: { ...burn(uuid(21)), idempotencyKey: NOT_A_UUID },
        status: 400,
        refused: 'body',
      },
      {
        op: 'placeOrder',
        body: { ...burn(uuid(22)), fiatAccountId: NOT_A_UUID },
        status: 400,
        refused: 'body',
      },
      { op: 'placeOrder', body: { ...burn(uuid(23)), orderType: 'SWAP' }, status: 400, refused: 'body' },
      { op: 'placeOrder', body: { ...burn(uuid(24)), feeBPS: '5' }, status: 400, refused: 'body' },
      { op: 'placeOrder', body: '{"orderType":', status: 400, refused: 'body' },
      { op: 'placeOrder', body: burn(uuid(25)), type: 'text/plain', status: 415, refused: 'media type' },
      { op: 'placeOrder', body: { ...burn(uuid(26)), sourceWalletId: BURNER.eurWalletId }, status: 400 },
      {
        op: 'listOrders',
        query: { page: '1', pageSize: '5', orderType: 'BURN', status: 'pending' },
        status: 200,
      },
      {
        op: 'listOrders',
        query: { from: '2030-01-02T00:00:00Z', to: '2030-01-01T00:00:00Z' },
        status: 400,
        refused: 'from after to',
      },
      { op: 'listOrders', query: { pageSize: '0' }, status: 400, refused: 'params' },
      { op: 'listOrders', query: { pageSize: '101' }, status: 400, refused: 'params' },
      { op: 'listOrders', query: { status: 'bogus' }, status: 400, refused: 'params' },
      { op: 'listOrders', query: { orderId: NOT_A_UUID }, status: 400, refused: 'params' },
      { op: 'listOrders', query: { from: 'yesterday' }, status: 400, refused: 'params' },
      { op: 'getOrder', params: { id: placed }, status: 200 },
      { op: 'getOrder', params: { id: NOT_A_UUID }, status: 400, refused: 'params' },
      { op: 'getOrder', params: { id: UNKNOWN }, status: 404, refused: 'state' },
      { op: 'modifyOrder', body: { auctionId: 1, orderId: placed, feeBps: '3' }, status: 200 },
      { op: 'modifyOrder', body: { auctionId: 1, orderId: placed }, status: 400, refused: 'body' },
      {
        op: 'modifyOrder',
        body: { auctionId: 1, orderId: placed, feeBps: '-1' },
        status: 400,
        refused: 'body',
      },
      {
        op: 'modifyOrder',
        body: { auctionId: 1, orderId: placed, feeBps: '1.234' },
        status: 400,
        refused: 'body',
      },
      {
        op: 'modifyOrder',
        body: { auctionId: 1, orderId: UNKNOWN, feeBps: '3' },
        status: 404,
        refused: 'state',
      },
      { op: 'cancelOrder', body: { auctionId: 1, orderId: placed }, status: 200 },
      { op: 'cancelOrder', body: { auctionId: 'one', orderId: placed }, status: 400, refused: 'body' },
      { op: 'cancelOrder', body: { auctionId: 1, orderId: NOT_A_UUID }, status: 400, refused: 'body' },
      { op: 'cancelOrder', body: { auctionId: 1, orderId: UNKNOWN }, status: 404, refused: 'state' },
      // auctionId's declared bounds are the ones the simulator keeps: plus or minus 2^53-1.
      ...[2 ** 53, -(2 ** 53)].map(
        (auctionId): Case => ({
          op: 'cancelOrder',
          body: { auctionId, orderId: UNKNOWN },
          status: 400,
          refused: 'body',
        }),
      ),
      ...[2 ** 53 - 1, -(2 ** 53 - 1)].map(
        (auctionId): Case => ({
          op: 'cancelOrder',
          body: { auctionId, orderId: UNKNOWN },
          status: 404,
          refused: 'state',
        }),
      ),
      {
        op: 'modifyOrder',
        body: { auctionId: 2 ** 53, orderId: UNKNOWN, feeBps: '3' },
        status: 400,
        refused: 'body',
      },
      {
        op: 'cancelOrder',
        body: { auctionId: 1, orderId: placed },
        type: 'text/plain',
        status: 415,
        refused: 'media type',
      },
      { op: 'cancelAllOrders', status: 200 },
      { op: 'cancelAllOrders', body: {}, status: 400, refused: 'no body' },
      { op: 'createWithdrawal', key: MINTER.apiKey, body: withdrawal(uuid(30)), status: 201 },
      {
        op: 'createWithdrawal',
        key: MINTER.apiKey,
        body: withdrawal(uuid(30), '1.00'),
        status: 409,
        refused: 'state',
      },
      ...['0', '0.00', '0.001', '-5', 'ten'].map(
        (amount, i): Case => ({
          op: 'createWithdrawal',
          key: MINTER.apiKey,
          body: withdrawal(uuid(31 + i), amount),
          status: 400,
          refused: 'body',
        }),
      ),
      {
        op: 'createWithdrawal',
        key: MINTER.apiKey,
        body: { ...withdrawal(uuid(40)), fiatAccountId: undefined },
        status: 400,
        refused: 'body',
      },
      {
        op: 'createWithdrawal',
        key: MINTER.apiKey,
        body: withdrawal(uuid(41)),
        type: 'application/xml',
        status: 415,
        refused: 'media type',
      },
      {
        op: 'createWithdrawal',
        key: SEEDED.noaccount.apiKey,
        body: withdrawal(uuid(42)),
        status: 404,
        refused: 'state',
      },
      { op: 'createWsTicket', status: 200 },
      { op: 'createWsTicket', body: '{}', status: 400, refused: 'no body' },
      { op: 'createWsTicket', key: SEEDED.ineligible.apiKey, status: 400, refused: 'state' },
    ];
    for (const c of cases) await check(c);
  });

  it('platform: configuration, subscriptions, public keys', async () => {
    const endpoint = 'https://hooks.example/a';
    const v2: [string, Record<string, unknown>][] = [
      ['createWalletSubscription', { endpoint, notificationTypes: ['*'] }],
      ['createPaymentsNetworkSubscription', { endpoint, name: 'pn', enabled: true }],
      ['createFxSubscription', { endpoint }],
      [
        'createTransferSubscription',
        { endpoint, environment: 'mainnet', addresses: ['0xabc'], domains: [0] },
      ],
    ];
    for (const [op, body] of v2) {
      await check({ op, body, status: 201 });
      await check({
        op,
        body: { ...body, endpoint: 'http://hooks.example/a' },
        status: 400,
        refused: 'body',
      });
      await check({ op, body: { notificationTypes: ['*'] }, status: 400, refused: 'body' });
      await check({ op, body, type: 'text/plain', status: 415, refused: 'media type' });
    }
    await check({ op: 'getConfiguration', status: 200 });
    const created = (await check({ op: 'createV1Subscription', body: { endpoint }, status: 201 })) as {
      data: { id: string };
    };
    const id = created.data.id;
    await check({ op: 'createV1Subscription', body: { endpoint: 'ftp://x' }, status: 400, refused: 'body' });
    await check({
      op: 'createV1Subscription',
      body: { endpoint },
      type: 'text/plain',
      status: 415,
      refused: 'media type',
    });
    await check({ op: 'listV1Subscriptions', status: 200 });
    await check({ op: 'deleteV1Subscription', params: { id }, status: 400, refused: 'state' });
    await check({ op: 'deleteV1Subscription', params: { id }, body: '{}', status: 400, refused: 'no body' });
    await sim.platform.idle();
    expect(confirmations.length).toBeGreaterThan(0);
    for (const url of confirmations) expect((await sim.handle(new Request(url))).status).toBe(200);
    await check({ op: 'deleteV1Subscription', params: { id }, status: 204 });
    await check({ op: 'deleteV1Subscription', params: { id: UNKNOWN }, status: 404, refused: 'state' });
    await check({ op: 'deleteV1Subscription', params: { id: NOT_A_UUID }, status: 400, refused: 'params' });
    const { keyId } = (await sim.platform.signers()).v2;
    await check({ op: 'getNotificationPublicKey', params: { keyId }, status: 200 });
    await check({
      op: 'getNotificationPublicKey',
      params: { keyId: UNKNOWN },
      status: 404,
      refused: 'state',
    });
    await check({
      op: 'getNotificationPublicKey',
      params: { keyId: NOT_A_UUID },
      status: 400,
      refused: 'params',
    });
  });

  it('every operation: 503 from fault injection, 429 past the rate limit, 413 past 1 MiB', async () => {
    const params = { id: UNKNOWN, keyId: UNKNOWN };
    sim.setFaults({ errorRate: 1 });
    for (const op of doc.operations.keys()) await check({ op, params, status: 503 });
    sim.setFaults({ errorRate: 0 });
    const limited = createSimulator({ rateLimit: { requests: 1, windowMs: 3_600_000 } });
    try {
      await check({ op: 'getAccount', status: 200 }, limited);
      for (const op of doc.operations.keys()) await check({ op, params, status: 429 }, limited);
    } finally {
      await limited.close();
    }
    const huge = `"${'x'.repeat(1_048_576)}"`;
    for (const [op, { method }] of doc.operations)
      if (method !== 'GET') await check({ op, params, body: huge, status: 413 });
  });

  it('covered every operation of the document, each with a success', () => {
    for (const [op, { operation }] of doc.operations) {
      const success = Object.keys(operation.responses).find((status) => status.startsWith('2'));
      expect(seen.get(op), op).toContain(Number(success));
    }
    expect(seen.size).toBe(doc.operations.size);
  });
});
