import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSimulator, SEEDED, type SimulatorEvent } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  decodeSocketEvent,
  encodeSocketEvent,
  SOCKET_EVENT_PAYLOADS,
  SOCKET_MONEY_FIELDS,
  SocketMoneyError,
  type SocketPayload,
} from '../../src/contract/ws-codec.js';

// biome-ignore lint/suspicious/noExplicitAny: the parsed YAML document is walked by hand.
const API: any = parseYaml(readFileSync(new URL('../../openapi/match-venue.yaml', import.meta.url), 'utf8'));

const order = {
  orderId: 'o',
  amount: { amount: '1000.50', currency: 'USD' },
  fill: {
    filledAmount: { amount: '0.07', currency: 'USD' },
    unfilledAmount: { amount: '1000.43', currency: 'USD' },
    clearingFeeBps: '5.00',
  },
  feeBps: '5',
};

describe('socket money codec', () => {
  it('sends every money field of an order as integer cents and gives back the same Money', () => {
    const wire = encodeSocketEvent('order.updated', order);
    expect(wire).toEqual({
      orderId: 'o',
      amount: 100050,
      fill: { filledAmount: 7, unfilledAmount: 100043, clearingFeeBps: '5.00' },
      feeBps: '5',
    });
    expect(decodeSocketEvent('order.updated', wire)).toEqual(order);
    // Copies along the money paths only: the input is left as it was.
    expect(order.amount).toEqual({ amount: '1000.50', currency: 'USD' });
  });

  it('decodes cents to two decimals, as REST writes Money', () => {
    const decoded = (cents: number) =>
      (decodeSocketEvent('withdrawal.updated', { id: 'w', amount: cents }) as { amount: unknown }).amount;
    expect(decoded(0)).toEqual({ amount: '0.00', currency: 'USD' });
    expect(decoded(5)).toEqual({ amount: '0.05', currency: 'USD' });
    expect(decoded(1000)).toEqual({ amount: '10.00', currency: 'USD' });
    expect(decoded(Number.MAX_SAFE_INTEGER)).toEqual({ amount: '90071992547409.91', currency: 'USD' });
  });

  it('leaves null or absent money alone (no fill yet, nothing settling, no clear yet)', () => {
    expect(decodeSocketEvent('order.accepted', { orderId: 'o', amount: 100, fill: null })).toEqual({
      orderId: 'o',
      amount: { amount: '1.00', currency: 'USD' },
      fill: null,
    });
    expect(
      decodeSocketEvent('auction.snapshot', {
        auction: { auctionId: 1, matchedVolume: 0 },
        settling: null,
        lastClear: null,
      }),
    ).toEqual({
      auction: { auctionId: 1, matchedVolume: { amount: '0.00', currency: 'USD' } },
      settling: null,
      lastClear: null,
    });
  });

  it('passes an event kind it does not know through untouched', () => {
    const data = { amount: 10.5, nested: { amount: { amount: '1.00', currency: 'USD' } } };
    expect(decodeSocketEvent('auction.mystery', data)).toBe(data);
    expect(encodeSocketEvent('auction.mystery', data)).toBe(data);
  });

  it.each([
    [10.5, 'got 10.5'],
    ['1000', 'got "1000"'],
    [-100, 'got -100'],
    [2 ** 53, 'got 9007199254740992'],
    [{ amount: '10.00', currency: 'USD' }, 'got {"amount":"10.00","currency":"USD"}'],
    [true, 'got true'],
  ])('refuses %j at a money field with an error naming the event, the field and the rule', (value, got) => {
    const decode = () =>
      decodeSocketEvent('order.updated', {
        orderId: 'o',
        amount: 100,
        fill: { filledAmount: value, unfilledAmount: 0 },
      });
    expect(decode).toThrow(SocketMoneyError);
    expect(decode).toThrow(
      `order.updated: data.fill.filledAmount must be a non-negative integer number of cents (socket money), ${got}`,
    );
    try {
      decode();
    } catch (err) {
      expect(err).toMatchObject({
        code: 'socket_money_invalid',
        event: 'order.updated',
        path: 'data.fill.filledAmount',
      });
    }
  });

  it('refuses to encode money that cannot travel as cents', () => {
    expect(() =>
      encodeSocketEvent('withdrawal.updated', { amount: { amount: '1.005', currency: 'USD' } }),
    ).toThrow('withdrawal.updated: data.amount cannot travel as socket cents');
    expect(() =>
      encodeSocketEvent('withdrawal.updated', { amount: { amount: '1.00', currency: 'EUR' } }),
    ).toThrow(RangeError);
    expect(() =>
      encodeSocketEvent('withdrawal.updated', { amount: { amount: '-1.00', currency: 'USD' } }),
    ).toThrow(RangeError);
  });
});

/** Dotted paths of every Money-typed field of an OpenAPI component (through $refs, oneOf and null). */
function moneyPathsOfSchema(name: string, prefix = ''): string[] {
  const walk = (schema: Record<string, unknown>, at: string): string[] => {
    const ref = schema.$ref as string | undefined;
    if (ref === '#/components/schemas/Money') return [at];
    if (ref) return walk(API.components.schemas[ref.split('/').pop() as string], at);
    const branches = (schema.oneOf ?? schema.anyOf) as Record<string, unknown>[] | undefined;
    if (branches) return branches.flatMap((b) => walk(b, at));
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown> | boolean>;
    return Object.entries(properties).flatMap(([key, s]) =>
      typeof s === 'object' ? walk(s, at ? `${at}.${key}` : key) : [],
    );
  };
  return walk(API.components.schemas[name], prefix);
}

/** Dotted paths of every Money-shaped object (`{amount: string, currency: string}`) in REST-shaped data. */
function moneyPathsOfData(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 2 && typeof o.amount === 'string' && typeof o.currency === 'string') return [prefix];
  return keys.flatMap((k) => moneyPathsOfData(o[k], prefix ? `${prefix}.${k}` : k));
}

const sorted = (paths: Iterable<string>) => [...new Set(paths)].sort();

describe('the money table covers every money field', () => {
  it("of the openapi schemas of the account events' payloads (Order, AccountSummary)", () => {
    expect(sorted([...moneyPathsOfSchema('BurnOrder'), ...moneyPathsOfSchema('MintOrder')])).toEqual(
      sorted(SOCKET_MONEY_FIELDS.order),
    );
    expect(sorted(moneyPathsOfSchema('AccountSummary'))).toEqual(sorted(SOCKET_MONEY_FIELDS.account));
  });

  it('of every event kind the simulator publishes, and of the market snapshot', async () => {
    const sim = createSimulator({ clock: 'manual' });
    try {
      const events: { event: string; data: unknown }[] = [];
      sim.onEvent((e: SimulatorEvent) => events.push({ event: e.event, data: e.data }));
      const call = async (name: 'burner' | 'minter', path: string, body: unknown) => {
        const res = await sim.handle(
          new Request(`http://sim.local${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${SEEDED[name].apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
        );
        expect(res.status, await res.clone().text()).toBeLessThan(300);
      };
      const amount = { amount: '1000.00', currency: 'USD' };
      await call('burner', '/v1/match/orders', {
        idempotencyKey: randomUUID(),
        orderType: 'BURN',
        amount,
        feeBps: '6',
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      });
      await call('minter', '/v1/match/orders', {
        idempotencyKey: randomUUID(),
        orderType: 'MINT',
        amount,
        feeBps: '4',
        postFillAction: 'cancel',
      });
      sim.clearAuction({ settle: false });
      // One snapshot with something settling and a last clear, so every snapshot path holds Money.
      events.push({ event: 'auction.snapshot', data: sim.marketSnapshot() });
      sim.settleAuction();
      await call('minter', '/v1/match/withdrawals', {
        idempotencyKey: randomUUID(),
        amount: { amount: '1.00', currency: 'USD' },
        fiatAccountId: SEEDED.minter.fiatAccountId,
      });
      sim.advance(5_000);

      const found = new Map<SocketPayload, string[]>();
      for (const { event, data } of events) {
        const payload = SOCKET_EVENT_PAYLOADS.get(event);
        expect(payload, `${event} is in SOCKET_EVENT_PAYLOADS`).toBeDefined();
        found.set(payload as SocketPayload, [
          ...(found.get(payload as SocketPayload) ?? []),
          ...moneyPathsOfData(data),
        ]);
        // Encoded, no Money object is left anywhere in the frame's data.
        expect(moneyPathsOfData(encodeSocketEvent(event, data)), event).toEqual([]);
      }
      expect(sorted(found.keys())).toEqual(sorted(Object.keys(SOCKET_MONEY_FIELDS)));
      for (const [payload, paths] of found)
        expect(sorted(paths), payload).toEqual(sorted(SOCKET_MONEY_FIELDS[payload]));
    } finally {
      await sim.close();
    }
  });
});
