/**
 * The comparisons behind the chaos run's mirror verdict (bench/chaos/mirror-compare.ts): a zero
 * there means "equal", so each must catch what differs, and let through only what docs/STATE.md
 * allows (a retired order, the activity window's bounds, a withdrawal marked stale).
 */
import type { AccountSummary, Order } from '../../src/generated/models.js';
import type { MirrorWithdrawal } from '../../src/state/index.js';
import { describe, expect, it } from 'vitest';
import { compareOrders, compareSummary, compareWithdrawals } from '../../bench/chaos/mirror-compare.js';

const order = (id: string, fields: Record<string, unknown> = {}) =>
  ({
    orderId: id,
    status: 'pending',
    feeBps: '5',
    updatedAt: '2030-01-01T00:00:00.000Z',
    ...fields,
  }) as unknown as Order;

const summary = (to: string, available = '10.00'): AccountSummary =>
  ({
    accountId: 'a',
    stablecoin: { available: { amount: available, currency: 'USD' } },
    activity: {
      from: new Date(Date.parse(to) - 86_400_000).toISOString(),
      to,
      totalMatched: { amount: '0.00' },
    },
  }) as unknown as AccountSummary;

describe('mirror comparisons (chaos driver)', () => {
  it('orders: a differing field, a missing order and an extra one are reported; a retired one is not', () => {
    const venue = [order('a'), order('b', { status: 'filled' }), order('c', { status: 'cancelled' })];
    expect(compareOrders('m', [order('a'), order('b', { status: 'filled' })], venue, new Set(['c']))).toEqual(
      [],
    );
    const diff = compareOrders('m', [order('a', { feeBps: '6' }), order('x')], venue, new Set(['c']));
    expect(diff).toEqual([
      'm order a: feeBps: "6" -> "5"',
      'm order b (filled) not in view',
      'm order x (pending) in view, unknown to the venue',
    ]);
  });

  it('summary: the window may end at the last balance event or later, any other field must match', () => {
    const now = summary('2030-01-01T00:00:05.000Z');
    const atEvent = summary('2030-01-01T00:00:02.000Z');
    expect(compareSummary('m', atEvent, now, '2030-01-01T00:00:02.000Z')).toEqual([]);
    expect(compareSummary('m', atEvent, now, '2030-01-01T00:00:03.000Z')).toHaveLength(1);
    expect(compareSummary('m', summary('2030-01-01T00:00:05.000Z', '9.00'), now, undefined)).toEqual([
      'm summary: stablecoin: {"available":{"amount":"9.00","currency":"USD"}} -> {"available":{"amount":"10.00","currency":"USD"}}',
    ]);
    expect(compareSummary('m', undefined, now, undefined)).toEqual(['m summary missing']);
  });

  it('withdrawals: behind and stale is counted apart, behind and not stale is a difference', () => {
    const venue = [{ id: 'w', status: 'completed' }];
    const held = (stale: boolean): MirrorWithdrawal[] => [
      { withdrawal: { id: 'w', status: 'pending' }, stale },
    ];
    expect(compareWithdrawals('m', held(true), venue, new Set())).toEqual({
      differences: [],
      staleBehind: 1,
      compared: 1,
    });
    expect(compareWithdrawals('m', held(false), venue, new Set()).differences).toEqual([
      'm withdrawal w: status: "pending" -> "completed"',
    ]);
  });
});
