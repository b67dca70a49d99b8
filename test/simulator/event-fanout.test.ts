import { describe, expect, it } from 'vitest';
import { EventFanout, type EventInterest } from '../../src/simulator/events/event-fanout.js';
import type { SimulatorEvent } from '../../src/simulator/index.js';

const A = '10000000-0000-4000-8000-00000000000a';
const B = '10000000-0000-4000-8000-00000000000b';

function fanout(webhookEntity?: string) {
  const platformEvents: SimulatorEvent[] = [];
  const platform = {
    state: () =>
      ({
        v1Subscriptions: webhookEntity ? [{ entityId: webhookEntity }] : [],
        v2Subscriptions: [],
      }) as never,
    onSimulatorEvent: (e: SimulatorEvent) => platformEvents.push(e),
  };
  return new EventFanout(platform, () => {});
}

/** An interest that wants only entity A's account events and records what it skipped. */
function onlyA() {
  const skipped: (string | undefined)[] = [];
  const interest: EventInterest = {
    wants: (entityId) => entityId === A,
    skip: (entityId) => skipped.push(entityId),
  };
  return { interest, skipped };
}

describe('EventFanout with an interest', () => {
  it('wants what the interest wants and tells it of every event not built', () => {
    const f = fanout();
    const { interest, skipped } = onlyA();
    const seen: SimulatorEvent[] = [];
    f.listen((e) => seen.push(e), interest);
    expect(f.wants(A)).toBe(true);
    expect(f.wants(B)).toBe(false);
    expect(f.wants(undefined)).toBe(false);
    expect(skipped).toEqual([B, undefined]);
    const event: SimulatorEvent = { channel: 'account', entityId: A, event: 'balance.updated', data: {} };
    f.emit(event);
    expect(seen).toEqual([event]);
  });

  it('another reader makes every event wanted, and nothing is skipped', () => {
    const f = fanout();
    const { interest, skipped } = onlyA();
    f.listen(() => {}, interest);
    const off = f.listen(() => {});
    expect(f.wants(B)).toBe(true);
    expect(f.wants(undefined)).toBe(true);
    expect(skipped).toEqual([]);
    off();
    expect(f.wants(B)).toBe(false);
    expect(skipped).toEqual([B]);
  });

  it("a webhook subscriber's account events are wanted whatever the interest says", () => {
    const f = fanout(B);
    const { interest, skipped } = onlyA();
    const off = f.listen(() => {}, interest);
    expect(f.wants(B)).toBe(true);
    expect(skipped).toEqual([]);
    off();
    // With the interest gone nobody counts: market events are neither wanted nor skipped.
    expect(f.wants(undefined)).toBe(false);
    expect(skipped).toEqual([]);
  });
});
