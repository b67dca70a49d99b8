/** JSON bodies for the fuzz driver (bench/fuzz-cases.ts): valid examples per endpoint, then broken ones. */
import type { SeededIds } from './fuzz-cases.js';
import type { Pick } from './fuzz-pick.js';

export function example(path: string, ids: SeededIds, p: Pick): unknown {
  const endpoint = 'https://example.com/hook';
  const money = { amount: p.one(['100.00', '1.00', '1000000.00']), currency: 'USD' };
  const bodies: Record<string, unknown> = {
    '/v1/match/orders': p.chance(0.5)
      ? { idempotencyKey: p.uuid(), orderType: 'MINT', amount: money, feeBps: '5', postFillAction: 'roll' }
      : {
          idempotencyKey: p.uuid(),
          orderType: 'BURN',
          amount: money,
          feeBps: p.one(['5', null, '4.25']),
          postFillAction: p.one(['roll', 'fallback', 'cancel']),
          sourceWalletId: ids.walletId,
          fiatAccountId: ids.fiatAccountId,
        },
    '/v1/match/orders/cancel': { auctionId: p.int(3) + 1, orderId: p.uuid() },
    '/v1/match/orders/modify': { auctionId: p.int(3) + 1, orderId: p.uuid(), feeBps: '4' },
    '/v1/match/withdrawals': { idempotencyKey: p.uuid(), amount: money, fiatAccountId: ids.fiatAccountId },
    '/v2/notifications/subscriptions': { endpoint, notificationTypes: ['*'] },
    '/v2/payments-network/notifications/subscriptions': {
      endpoint,
      name: 'n',
      enabled: true,
      notificationTypes: ['*'],
    },
    '/v2/fx/notifications/subscriptions': { endpoint, notificationTypes: ['*'] },
    '/v2/notifications/subscriptions/permissionless': {
      environment: 'mainnet',
      endpoint,
      addresses: ['0xabc'],
      domains: [0],
      notificationTypes: ['transfer.*'],
    },
    '/v1/notifications/subscriptions': { endpoint },
    '/_sim/auctions/clear': { settle: p.chance(0.5) },
    '/_sim/clock/advance': { ms: p.one([0, 1_000, 10_000]) },
    '/_sim/phase': { phase: p.one(['open', 'lock']) },
  };
  return bodies[path];
}

function deep(depth: number, p: Pick): unknown {
  let v: unknown = p.one([1, 'x', null]);
  for (let i = 0; i < depth; i++) v = p.chance(0.5) ? [v] : { a: v };
  return v;
}

/** A hostile JSON value: wrong types, odd numbers, long or strange strings, deep nesting. */
function hostile(p: Pick): unknown {
  switch (p.int(9)) {
    case 0:
      return p.one([null, true, 0, -1, 1e308, -0, 2 ** 53 + 1, 0.1, 1.5]);
    case 1:
      return p.text(40);
    case 2:
      return 'x'.repeat(p.one([300, 5_000, 70_000]));
    case 3:
      return deep(p.one([10, 63, 64, 65, 200]), p);
    case 4:
      return Array.from({ length: p.one([25, 1_000, 20_000]) }, () => p.int(10));
    case 5:
      return Object.fromEntries(
        Array.from({ length: p.one([30, 2_000]) }, (_, i) => [`k${i}${p.text(3)}`, i]),
      );
    case 6:
      return { [p.text(5) + 'k'.repeat(p.one([10, 3_000]))]: p.text(5) };
    case 7:
      return p.one(['1e3', '100.001', '-100.00', 'NaN', '00000000-0000-0000-0000-000000000000', '']);
    default:
      return [];
  }
}

export function mutate(value: unknown, p: Pick): unknown {
  if (value === null || typeof value !== 'object' || p.chance(0.15)) return hostile(p);
  const copy: Record<string, unknown> = Array.isArray(value) ? { ...value } : { ...(value as object) };
  const keys = Object.keys(copy);
  const action = p.int(4);
  if (action === 0 && keys.length) delete copy[p.one(keys)];
  else if (action === 1 || !keys.length)
    copy[p.one(['extra', 'orderType', 'amount', '__proto__', p.text(6)])] = hostile(p);
  else {
    const key = p.one(keys);
    copy[key] = mutate(copy[key], p);
  }
  return Array.isArray(value) ? Object.values(copy) : copy;
}

export function jsonText(value: unknown, p: Pick): string {
  const text = JSON.stringify(value) ?? 'null';
  if (!p.chance(0.2)) return text;
  const cut = p.int(text.length + 1);
  return p.chance(0.5) ? text.slice(0, cut) : `${text.slice(0, cut)}${p.text(3)}${text.slice(cut)}`;
}
