import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { collectEndpoints, type OpenApiDocument } from '../../scripts/openapi-document.js';
import { type EndpointDefinition, endpoints } from '../../src/generated/endpoints.js';
import { lookupErrorCode } from '../../src/generated/errors.js';
import { Order, PlaceOrderRequest, V1Subscription } from '../../src/generated/validators.js';
import { accepts, issuesOf, parse } from '../helpers/checks.js';

// What the documents say per operation beyond the table the code runs on (the error codes each
// status carries, the spec gaps), read by the generator's own reader: only tests need them.
const documentText = readFileSync(new URL('../../openapi/match-venue.yaml', import.meta.url), 'utf8');
const documented = new Map(
  collectEndpoints(parseYaml(documentText) as OpenApiDocument).map((e) => [
    e.operationId,
    { specGap: e.specGap, errorCodes: Object.fromEntries(e.errorCodes) as Record<number, number[]> },
  ]),
);
const facts = (id: string) => {
  const found = documented.get(id);
  if (!found) throw new Error(`${id} is not in openapi/match-venue.yaml`);
  return found;
};

describe('endpoint table', () => {
  it('lists every endpoint of both documents with its method, path and success status', () => {
    const table = Object.fromEntries(
      Object.entries(endpoints).map(([id, e]) => [id, `${e.method} ${e.path} ${e.successStatus}`]),
    );
    expect(table).toEqual({
      getAccount: 'GET /v1/match/account 200',
      placeOrder: 'POST /v1/match/orders 202',
      listOrders: 'GET /v1/match/orders 200',
      getOrder: 'GET /v1/match/orders/{id} 200',
      cancelOrder: 'POST /v1/match/orders/cancel 200',
      cancelAllOrders: 'POST /v1/match/orders/cancel-all 200',
      modifyOrder: 'POST /v1/match/orders/modify 200',
      createWithdrawal: 'POST /v1/match/withdrawals 201',
      createWsTicket: 'POST /v1/match/ws/ticket 200',
      getConfiguration: 'GET /v1/configuration 200',
      createWalletSubscription: 'POST /v2/notifications/subscriptions 201',
      createPaymentsNetworkSubscription: 'POST /v2/payments-network/notifications/subscriptions 201',
      createFxSubscription: 'POST /v2/fx/notifications/subscriptions 201',
      createTransferSubscription: 'POST /v2/notifications/subscriptions/permissionless 201',
      createV1Subscription: 'POST /v1/notifications/subscriptions 201',
      listV1Subscriptions: 'GET /v1/notifications/subscriptions 200',
      deleteV1Subscription: 'DELETE /v1/notifications/subscriptions/{id} 204',
      getNotificationPublicKey: 'GET /v2/notifications/publicKey/{keyId} 200',
    });
  });

  it('marks as idempotent the reads, the delete, the keyed bodies and what x-idempotent declares (cancel, modify, ticket)', () => {
    const idempotent = Object.entries(endpoints)
      .filter(([, e]) => e.idempotent)
      .map(([id]) => id)
      .sort();
    expect(idempotent).toEqual(
      [
        'getAccount',
        'listOrders',
        'getOrder',
        'placeOrder',
        'createWithdrawal',
        'getConfiguration',
        'listV1Subscriptions',
        'deleteV1Subscription',
        'getNotificationPublicKey',
        'cancelOrder',
        'modifyOrder',
        'createWsTicket',
      ].sort(),
    );
    // Never sent again after an attempt that may have landed: cancel-all and the subscription creates.
    expect(
      Object.values(endpoints)
        .filter((e) => !e.idempotent)
        .map((e) => e.operationId)
        .sort(),
    ).toEqual(
      [
        'cancelAllOrders',
        'createWalletSubscription',
        'createPaymentsNetworkSubscription',
        'createFxSubscription',
        'createTransferSubscription',
        'createV1Subscription',
      ].sort(),
    );
  });

  it('marks as keyed exactly the bodies with an idempotencyKey: the pipeline makes one per call', () => {
    const keyed = Object.values(endpoints)
      .filter((e) => e.keyed)
      .map((e) => e.operationId);
    expect(keyed.sort()).toEqual(['createWithdrawal', 'placeOrder']);
  });

  it('marks the success statuses the documents leave open as spec gaps', () => {
    const gaps = Object.keys(endpoints)
      .filter((id) => facts(id).specGap)
      .sort();
    expect(gaps).toEqual(
      [
        'createWalletSubscription',
        'createPaymentsNetworkSubscription',
        'createFxSubscription',
        'createTransferSubscription',
        'createV1Subscription',
        'listV1Subscriptions',
        'deleteV1Subscription',
      ].sort(),
    );
  });

  it('carries the checks of bodies, queries and response data', () => {
    expect(endpoints.placeOrder.body).toBe(PlaceOrderRequest);
    expect(endpoints.getOrder.responseData).toBe(Order);
    expect(endpoints.getOrder.pathParams).toEqual(['id']);
    expect(endpoints.deleteV1Subscription.responseData).toBeNull();
    expect(endpoints.getAccount.body).toBeNull();
    // A list answer is an array of V1Subscription: each element is checked with it.
    const list = endpoints.listV1Subscriptions.responseData;
    const id = 'b2d4c6e8-1a3b-4c5d-8e9f-0a1b2c3d4e5f';
    const subscription = { id, endpoint: 'https://hooks.example.com/v1', subscriptionDetails: [] };
    expect(accepts(V1Subscription, subscription)).toBe(true);
    expect(parse(list, [subscription])).toEqual([subscription]);
    expect(issuesOf(list, [{ id }])).toEqual(
      issuesOf(V1Subscription, { id }).map((i) => ({ ...i, path: [0, ...i.path] })),
    );
    expect(issuesOf(list, [{ id }])).toEqual([
      { path: [0, 'endpoint'], message: 'is required' },
      { path: [0, 'subscriptionDetails'], message: 'is required' },
    ]);
    expect(issuesOf(list, {})).toEqual([{ path: [], message: 'must be an array, not an object' }]);
    expect(parse(endpoints.listOrders.query, {})).toEqual({ page: 1, pageSize: 20 });
  });

  it('lists the error codes the venue document gives per status, each known to the catalog', () => {
    expect(facts('placeOrder').errorCodes).toEqual({
      400: [2, 137001, 137002, 137003, 137007, 137008, 137009, 137010],
      401: [401, 156007],
      409: [137004, 137006],
      // Statuses the documents do not show, answered with code -1 (filed under 400 by the catalog).
      413: [],
      415: [],
      429: [],
      500: [],
      503: [],
    });
    expect(facts('createWithdrawal').errorCodes[409]).toEqual([137004]);
    expect(facts('createWithdrawal').errorCodes[404]).toEqual([138003]);
    for (const id of ['getOrder', 'cancelOrder', 'modifyOrder'] as const) {
      expect(facts(id).errorCodes[404], id).toEqual([156003]);
    }
    expect(facts('getAccount').errorCodes[400]).toEqual([2, 137010, 139001]);
    for (const id of Object.keys(endpoints)) {
      for (const [status, codes] of Object.entries(facts(id).errorCodes)) {
        for (const code of codes)
          expect(lookupErrorCode(code)?.http, `${id} ${status} ${code}`).toBe(Number(status));
      }
    }
  });

  it('answers every status and code the documents give per operation, and 401 everywhere', () => {
    // [operationId, success status, {error status: codes the documents name for it}]
    const documented: [keyof typeof endpoints, number, Record<number, number[]>][] = [
      ['getAccount', 200, { 400: [139001], 404: [138003] }],
      [
        'placeOrder',
        202,
        { 400: [137001, 137002, 137003, 137007, 137008, 137009, 137010], 409: [137004, 137006] },
      ],
      ['listOrders', 200, { 400: [] }],
      ['getOrder', 200, { 404: [] }],
      ['cancelOrder', 200, { 400: [136001, 136002] }],
      ['cancelAllOrders', 200, { 400: [136001, 136002] }],
      ['modifyOrder', 200, { 400: [137005] }],
      ['createWithdrawal', 201, { 400: [137001, 137009, 138001, 138002, 138004], 404: [138003] }],
      ['createWsTicket', 200, {}],
    ];
    for (const [id, success, errors] of documented) {
      const endpoint: EndpointDefinition = endpoints[id];
      expect(endpoint.successStatus, id).toBe(success);
      for (const [status, codes] of Object.entries(errors)) {
        expect(facts(id).errorCodes[Number(status)], `${id} ${status}`).toEqual(
          expect.arrayContaining(codes),
        );
      }
    }
    for (const id of Object.keys(endpoints)) {
      expect(facts(id).errorCodes[401], id).toEqual([401, 156007]);
    }
  });
});
