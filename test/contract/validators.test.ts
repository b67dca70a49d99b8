// The client's plain validators (generated/validators.ts, contract/operations.ts) against the zod
// schemas they stand for (generated/schemas.ts, contract/operation-schemas.ts): for every operation's
// query, body and response, on valid values and on every single mutation of them (each field
// removed, replaced by values of every type and near-miss strings, unknown keys added) and on random
// multi-field mutations, both must accept or reject alike, produce the same output, and report the
// same issues (path, code and message, in order).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type Check, runCheck } from '../../src/contract/checks.js';
import { operationSchemas } from '../../src/contract/operation-schemas.js';
import { operations } from '../../src/contract/operations.js';
import * as schemas from '../../src/generated/schemas.js';
import * as validators from '../../src/generated/validators.js';

type Json = unknown;
const ORDER = '10000000-0000-4000-8000-0000000000aa';
const OTHER = '20000000-0000-4000-8000-0000000000bb';
const KEY = '3b241101-e2bb-4255-8caf-4136c566a962';
const AT = '2026-01-01T10:00:00.000Z';
const money = (amount: string) => ({ amount, currency: 'USD' });

const burnOrder = {
  orderId: ORDER,
  auctionId: 7,
  lineage: { parentOrderId: null, childOrderId: OTHER },
  orderType: 'BURN',
  amount: money('1000.00'),
  feeBps: '5.00',
  postFillAction: 'roll',
  status: 'partial_fill',
  createdAt: AT,
  updatedAt: '2026-01-01T10:00:05+01:00',
  fill: {
    filledAmount: money('400.00'),
    unfilledAmount: money('600.00'),
    clearingFeeBps: '4.5',
    matchedAt: AT,
  },
  sourceWalletId: 'wallet-1',
  fiatAccountId: OTHER,
};
const mintOrder = {
  orderId: OTHER,
  auctionId: null,
  lineage: { parentOrderId: ORDER, childOrderId: null },
  orderType: 'MINT',
  amount: money('500.00'),
  postFillAction: 'fallback',
  status: 'pending',
  createdAt: AT,
  updatedAt: AT,
  fill: null,
  sourceWalletId: null,
  fiatAccountId: null,
  venueExtra: { kept: true },
};
const subscription = {
  id: ORDER,
  name: 'hooks',
  endpoint: 'https://hooks.example.com/x',
  enabled: true,
  createDate: AT,
  updateDate: AT,
  notificationTypes: ['*'],
  restricted: false,
  environment: 'sandbox',
  addresses: ['0xabc'],
  domains: [0, 1],
};

/** Valid values of each operation's query, body and response data. */
const fixtures: Record<string, { query?: Json[]; body?: Json[]; response?: Json[] }> = {
  getAccount: {
    response: [
      {
        accountId: 'acct-1',
        stablecoin: { available: money('10.00'), reserved: money('0'), total: money('10.00') },
        exposure: { activeOrderCount: 1, mintOrderCount: 0, burnOrderCount: 1 },
        activity: {
          from: AT,
          to: AT,
          totalMatched: money('1'),
          rebatesEarned: money('0.5'),
          feesPaid: money('0'),
        },
      },
    ],
  },
  listOrders: {
    query: [
      {},
      { page: 2, pageSize: 100, status: 'filled', orderType: 'BURN', orderId: ORDER, from: AT, to: AT },
      { page: '3', pageSize: '7', from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00+02:00' },
    ],
    response: [
      { orders: [burnOrder, mintOrder], pagination: { page: 1, pageSize: 20, total: 2 } },
      { orders: [], pagination: { page: 1, pageSize: 20, total: 0 } },
    ],
  },
  placeOrder: {
    body: [
      {
        idempotencyKey: KEY,
        orderType: 'BURN',
        amount: money('1000'),
        feeBps: '5',
        postFillAction: 'roll',
        sourceWalletId: 'wallet-1',
        fiatAccountId: ORDER,
      },
      {
        idempotencyKey: KEY,
        orderType: 'MINT',
        amount: money('100.00'),
        feeBps: null,
        postFillAction: 'cancel',
      },
    ],
    response: [{ auctionId: 3, orderId: ORDER, status: 'pending' }],
  },
  getOrder: { response: [burnOrder, mintOrder] },
  cancelOrder: {
    body: [{ auctionId: 3, orderId: ORDER }],
    response: [{ auctionId: 3, orderId: ORDER, status: 'cancelled' }],
  },
  cancelAllOrders: { response: [{ auctionId: 3, orderIds: [ORDER, OTHER], status: 'cancelled' }] },
  modifyOrder: {
    body: [
      { auctionId: 3, orderId: ORDER, feeBps: '2.5' },
      { auctionId: 3, orderId: ORDER, feeBps: null },
    ],
    response: [{ auctionId: 3, orderId: ORDER, status: 'pending' }],
  },
  createWithdrawal: {
    body: [{ idempotencyKey: KEY, amount: money('0.01'), fiatAccountId: ORDER }],
    response: [{ id: ORDER, status: 'pending' }],
  },
  createWsTicket: { response: [{ ticket: 'jwt', expiresAt: AT }, { ticket: 'jwt' }] },
  getConfiguration: { response: [{ payments: { masterWalletId: 'w' } }] },
  createWalletSubscription: {
    body: [
      { endpoint: 'https://hooks.example.com/x', notificationTypes: ['*'] },
      { endpoint: 'http://127.0.0.1:8080/h' },
    ],
    response: [subscription],
  },
  createPaymentsNetworkSubscription: {
    body: [{ endpoint: 'https://hooks.example.com/x', name: 'n', enabled: false, notificationTypes: ['a'] }],
    response: [subscription],
  },
  createFxSubscription: { body: [{ endpoint: 'https://hooks.example.com/x' }], response: [subscription] },
  createTransferSubscription: {
    body: [
      { environment: 'sandbox', endpoint: 'https://hooks.example.com/x', addresses: ['0x1'], domains: [1] },
    ],
    response: [subscription],
  },
  createV1Subscription: {
    body: [{ endpoint: 'https://hooks.example.com/x' }],
    response: [
      {
        id: ORDER,
        endpoint: 'https://hooks.example.com/x',
        subscriptionDetails: [{ url: 'https://sns.example/x', arn: 'arn:x', status: 'confirmed' }],
      },
    ],
  },
  listV1Subscriptions: {
    response: [[], [{ id: ORDER, endpoint: 'https://h.example', subscriptionDetails: [] }]],
  },
  deleteV1Subscription: {},
  getNotificationPublicKey: {
    response: [{ id: ORDER, algorithm: 'ECDSA_SHA_256', publicKey: 'MFkw', createDate: AT }],
  },
};

// Values of every type, and strings that nearly pass the contract's rules.
const REPLACEMENTS: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1,
  1.5,
  101,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  2 ** 60,
  -(2 ** 60),
  10n,
  true,
  false,
  '',
  'x',
  ' ',
  'BURN',
  'MINT',
  'USD',
  'EUR',
  'usd',
  '5',
  '-5',
  '0x10',
  '1e2',
  ' 5',
  '100',
  '150',
  '100.00',
  '100.001',
  '0',
  '0.00',
  '01',
  'pending',
  'cancelled',
  ORDER,
  ORDER.toUpperCase(),
  `${ORDER}x`,
  '10000000-0000-1000-8000-0000000000aa',
  '2026-01-01T00:00:00Z',
  '2026-01-01T00:00:00',
  '2026-02-30T00:00:00Z',
  '2025-12-31T00:00:00Z',
  'https://hooks.example.com/y',
  'http://127.0.0.1:9/h',
  'http://hooks.example.com/h',
  'https://user:pw@hooks.example.com/h',
  `https://hooks.example.com/${'a'.repeat(60)}`,
  `${'1'.repeat(50)}.00`,
  `${AT}${'0'.repeat(40)}`,
  [],
  ['x'],
  [1],
  [null],
  {},
  { a: 1 },
  money('100.00'),
  new Date(0),
  () => 1,
  Symbol('s'),
];

type Path = (string | number)[];

function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) paths(item, [...at, i], out);
  } else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) paths(item, [...at, key], out);
  return out;
}

function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)])) as T;
  }
  return value;
}

/** `value` with the node at `path` replaced by `replace(node)`, or removed when it returns REMOVE. */
const REMOVE = Symbol('remove');
function mutate(value: unknown, path: Path, replace: (node: unknown) => unknown): unknown {
  if (path.length === 0) return replace(value);
  const [head, ...rest] = path as [string | number, ...Path];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  const next = mutate(copy[head], rest, replace);
  if (next === REMOVE && !Array.isArray(value)) delete copy[head];
  else copy[head] = next;
  return copy;
}

/** Every single mutation of `value`. */
function mutations(value: unknown): unknown[] {
  const out: unknown[] = [];
  for (const path of paths(value)) {
    for (const replacement of REPLACEMENTS) out.push(mutate(value, path, () => replacement));
    if (path.length > 0) out.push(mutate(value, path, () => REMOVE));
    out.push(
      mutate(value, path, (node) =>
        node !== null && typeof node === 'object' && !Array.isArray(node) ? { ...node, extra: 1 } : node,
      ),
    );
    out.push(mutate(value, path, (node) => (typeof node === 'string' ? `${node} ` : node)));
    out.push(mutate(value, path, (node) => (typeof node === 'string' ? node.slice(1) : node)));
  }
  // Each again beside an unknown key at the top: some rules run only while nothing else is wrong.
  const top = value !== null && typeof value === 'object' && !Array.isArray(value);
  return top
    ? [...out, ...out.map((m) => (m !== null && typeof m === 'object' ? { ...m, extra: 1 } : m))]
    : out;
}

const show = (value: unknown) =>
  (() => {
    try {
      return JSON.stringify(value, (_, v) =>
        typeof v === 'bigint' ? `${v}n` : typeof v === 'symbol' ? String(v) : v,
      );
    } catch {
      return String(value);
    }
  })();

/** Both sides on one input: the same verdict, output and issues. */
function agree(schema: z.ZodType, check: Check, input: unknown): void {
  const expected = schema.safeParse(clone(input));
  const actual = runCheck(check, clone(input));
  const where = show(input);
  expect(actual.ok, where).toBe(expected.success);
  // The fast path of a valid value answers as strictly.
  if (check.test) expect(check.test(clone(input)), where).toBe(expected.success);
  if (expected.success && actual.ok) expect(actual.value, where).toStrictEqual(expected.data);
  if (!expected.success && !actual.ok) {
    expect(
      actual.issues.map(({ path, code, message }) => ({ path, code, message })),
      where,
    ).toStrictEqual(expected.error.issues.map(({ path, code, message }) => ({ path, code, message })));
  }
}

const parts = ['query', 'body', 'response'] as const;
const cases = Object.keys(operations).flatMap((id) =>
  parts.map((part) => {
    const key = part === 'response' ? 'responseData' : part;
    const op = id as keyof typeof operations;
    return {
      id,
      part,
      schema: operationSchemas[op][key] as z.ZodType | null,
      check: operations[op][key] as Check | null,
      values: fixtures[id]?.[part],
    };
  }),
);

describe('every validator has its schema and fixtures', () => {
  it.each(cases)('$id $part', ({ schema, check, values }) => {
    expect(check === null).toBe(schema === null);
    if (schema === null) expect(values).toBeUndefined();
    else expect(values?.length).toBeGreaterThan(0);
  });

  it('every component validator is the one of its schema name', () => {
    const names = Object.keys(validators).filter((name) => /^[A-Z]/.test(name) && name !== 'CheckedEndpoint');
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) expect(Object.keys(schemas), name).toContain(name);
  });
});

describe.each(cases.filter((c) => c.schema !== null))('$id $part', ({ schema, check, values }) => {
  it('agrees with zod on the valid values', () => {
    for (const value of values ?? []) {
      expect(schema!.safeParse(value).success, show(value)).toBe(true);
      agree(schema!, check!, value);
    }
  });

  it('agrees with zod on every single mutation', () => {
    for (const value of values ?? []) for (const mutated of mutations(value)) agree(schema!, check!, mutated);
  });

  it('agrees with zod on random multi-field mutations', () => {
    const replacement = fc.oneof(
      fc.constantFrom(...REPLACEMENTS),
      fc.string({ maxLength: 80 }),
      fc.integer(),
      fc.double(),
      fc.dictionary(
        fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__'),
        fc.jsonValue({ maxDepth: 2 }),
        { maxKeys: 3 },
      ),
      fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
    );
    const all = (values ?? []).map((value) => ({ value, paths: paths(value) }));
    fc.assert(
      fc.property(
        fc.nat({ max: all.length - 1 }),
        fc.array(fc.tuple(fc.nat(), replacement), { minLength: 1, maxLength: 3 }),
        (which, edits) => {
          const { value, paths: at } = all[which]!;
          let mutated: unknown = value;
          for (const [index, next] of edits) {
            const path = at[index % at.length]!;
            try {
              mutated = mutate(mutated, path, () => next);
            } catch {
              // an earlier edit replaced a parent of this path with a primitive
            }
          }
          agree(schema!, check!, mutated);
        },
      ),
      { numRuns: 300 },
    );
  });
});
