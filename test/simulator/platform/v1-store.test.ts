import { describe, expect, it } from 'vitest';
import { toV1Wire, V1SubscriptionStore } from '../../../src/simulator/platform/v1-store.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

function store(mode: 'sandbox' | 'production') {
  let now = Date.UTC(2026, 0, 1);
  const s = new V1SubscriptionStore({ now: () => now, mode });
  return { s, advance: (ms: number) => (now += ms) };
}

describe('V1SubscriptionStore', () => {
  it('creates one pending detail per region with topic and subscription ARNs', () => {
    const { s } = store('sandbox');
    const created = s.create('burner', 'https://example.test/hook');
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const wire = toV1Wire(created.subscription);
    expect(wire.endpoint).toBe('https://example.test/hook');
    expect(wire.subscriptionDetails.map((d) => d.status)).toEqual(['pending', 'pending']);
    expect(wire.subscriptionDetails[0]?.url).toBe(
      'arn:aws:sns:us-east-1:000000000000:match-venue-sim-burner',
    );
    expect(wire.subscriptionDetails[1]?.url).toBe(
      'arn:aws:sns:us-west-2:000000000000:match-venue-sim-burner',
    );
    expect(wire.subscriptionDetails[0]?.arn.startsWith(`${wire.subscriptionDetails[0]?.url}:`)).toBe(true);
  });

  it.each([
    ['sandbox', 3],
    ['production', 1],
  ] as const)('limits %s entities to %i subscriptions, per entity', (mode, limit) => {
    const { s } = store(mode);
    for (let i = 0; i < limit; i++) expect(s.create('burner', `https://e.test/${i}`).ok).toBe(true);
    expect(s.create('burner', 'https://e.test/x')).toEqual({ ok: false, reason: 'limit', limit });
    expect(s.create('minter', 'https://e.test/x').ok).toBe(true);
  });

  it('refuses deletion while a detail is pending and allows it once every detail is confirmed', () => {
    const { s } = store('sandbox');
    const created = s.create('burner', 'https://e.test/');
    if (!created.ok) throw new Error('create failed');
    const [east, west] = created.subscription.details;
    expect(s.delete('burner', created.subscription.id)).toEqual({
      ok: false,
      reason: 'pending',
      pendingRegions: ['us-east-1', 'us-west-2'],
    });
    s.confirm(east!.token);
    expect(s.delete('burner', created.subscription.id)).toMatchObject({
      reason: 'pending',
      pendingRegions: ['us-west-2'],
    });
    s.confirm(west!.token);
    expect(s.delete('minter', created.subscription.id)).toEqual({ ok: false, reason: 'not-found' });
    expect(s.delete('burner', created.subscription.id).ok).toBe(true);
    expect(s.list('burner')).toEqual([]);
  });

  it('a deleted (unsubscribed) detail does not block deletion', () => {
    const { s } = store('sandbox');
    const created = s.create('burner', 'https://e.test/');
    if (!created.ok) throw new Error('create failed');
    const [east, west] = created.subscription.details;
    s.confirm(east!.token);
    expect(s.unsubscribe(west!.arn)?.status).toBe('deleted');
    expect(s.delete('burner', created.subscription.id).ok).toBe(true);
  });

  it.each([
    ['sandbox', 30 * DAY],
    ['production', 72 * HOUR],
  ] as const)('removes %s pending details after %i ms, keeping confirmed ones', (mode, age) => {
    const { s, advance } = store(mode);
    const a = s.create('burner', 'https://e.test/a');
    if (!a.ok) throw new Error('create failed');
    const [east, west] = a.subscription.details;
    s.confirm(east!.token);
    advance(age - 1);
    expect(s.list('burner')[0]?.details).toHaveLength(2);
    advance(1);
    const [left] = s.list('burner');
    expect(left?.details.map((d) => [d.region, d.status])).toEqual([['us-east-1', 'confirmed']]);
    // The expired detail's token no longer confirms anything.
    expect(s.confirm(west!.token)).toBeUndefined();
  });

  it('removes a subscription whose details all expired pending, freeing its slot', () => {
    const { s, advance } = store('production');
    expect(s.create('burner', 'https://e.test/a').ok).toBe(true);
    expect(s.create('burner', 'https://e.test/b').ok).toBe(false);
    advance(72 * HOUR);
    expect(s.list('burner')).toEqual([]);
    expect(s.create('burner', 'https://e.test/b').ok).toBe(true);
  });

  it('delivers through the first confirmed detail only', () => {
    const { s } = store('sandbox');
    const created = s.create('burner', 'https://e.test/');
    if (!created.ok) throw new Error('create failed');
    expect(s.deliveryDetail(created.subscription)).toBeUndefined();
    s.confirm(created.subscription.details[1]!.token);
    expect(s.deliveryDetail(created.subscription)?.region).toBe('us-west-2');
  });
});
