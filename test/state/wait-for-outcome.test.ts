import { randomUUID } from 'node:crypto';
import {
  APIUserAbortError,
  InvalidArgumentError,
  MatchVenue,
  NotFoundError,
  ValidationError,
  WaitTimeoutError,
} from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFrameProxy } from '../../bench/chaos/frame-proxy.js';
import { burnParams, clientOf, mintParams, type Rig, startRig } from './helpers.js';

// orders.waitForOutcome against the simulator: each final state, a roll's child, REST alone, a
// stream that hears nothing, a mirror, the timeout, the abort and bad input.

let rig: Rig;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  rig = await startRig(1024);
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await rig.close();
});

/** GETs of one order sent so far. */
const reads = (orderId: string) =>
  rig.wire.requests.filter((r) => r === `GET /v1/match/orders/${orderId}`).length;

describe('orders.waitForOutcome (REST alone)', () => {
  it('filled: waits while pending and settling, resolves with the settled order', async () => {
    const minter = clientOf(rig, 'minter');
    const burner = clientOf(rig, 'burner');
    const { orderId } = await minter.orders.place(mintParams('100', '4'));
    await burner.orders.place(burnParams('100', '6'));
    let done = false;
    const outcome = minter.orders.waitForOutcome(orderId, { timeout: 10_000 }).finally(() => {
      done = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(done).toBe(false);
    rig.venue.sim.clearAuction();
    const order = await outcome;
    expect(order).toEqual(await minter.orders.retrieve(orderId));
    expect(order.status).toBe('filled');
    expect(reads(orderId)).toBeGreaterThanOrEqual(2);
  });

  it('partial_fill with roll: resolves with the child id, which is the remainder order', async () => {
    const minter = clientOf(rig, 'minter');
    const burner = clientOf(rig, 'burner');
    const { orderId } = await minter.orders.place(mintParams('300', '4', 'roll'));
    await burner.orders.place(burnParams('100', '6'));
    rig.venue.sim.clearAuction();
    const order = await minter.orders.waitForOutcome(orderId, { timeout: 10_000 });
    expect(order.status).toBe('partial_fill');
    const childId = order.lineage.childOrderId;
    expect(childId).toEqual(expect.any(String));
    const child = await minter.orders.retrieve(childId as string);
    expect([child.lineage.parentOrderId, child.status, child.amount.amount]).toEqual([
      orderId,
      'pending',
      '200.00',
    ]);
  });

  it('a child that shows a moment after the final status (as the real venue may): waited for within childGraceMs', async () => {
    // Reads of the parent hide its child for the first `hidden` reads after it is final.
    const withLag = (hidden: number) => {
      let left = hidden;
      return async (input: string, init: RequestInit) => {
        const res = await rig.wire.fetch(input, init);
        if (!/\/v1\/match\/orders\/[0-9a-f-]{36}$/.test(new URL(input).pathname) || res.status !== 200)
          return res;
        const body = (await res.json()) as {
          data: { status: string; lineage: { childOrderId: string | null } };
        };
        if (body.data.status === 'partial_fill' && left > 0) {
          left -= 1;
          body.data.lineage.childOrderId = null;
        }
        return new Response(JSON.stringify(body), { status: 200, headers: res.headers });
      };
    };
    const place = async (client: MatchVenue) => {
      const { orderId } = await client.orders.place(mintParams('300', '4', 'roll'));
      await clientOf(rig, 'burner').orders.place(burnParams('100', '6'));
      rig.venue.sim.clearAuction();
      return orderId;
    };
    const patient = clientOf(rig, 'minter', { fetch: withLag(2) });
    const a = await place(patient);
    const order = await patient.orders.waitForOutcome(a, { timeout: 10_000 });
    expect([order.status, order.lineage.childOrderId]).toEqual(['partial_fill', expect.any(String)]);

    const hasty = clientOf(rig, 'minter', { fetch: withLag(1) });
    const b = await place(hasty);
    const first = await hasty.orders.waitForOutcome(b, { timeout: 10_000, childGraceMs: 0 });
    expect([first.status, first.lineage.childOrderId]).toEqual(['partial_fill', null]);
  });

  it('cancelled and unfilled', async () => {
    const minter = clientOf(rig, 'minter');
    const cancelled = await minter.orders.place(mintParams('100', '4'));
    const waiting = minter.orders.waitForOutcome(cancelled.orderId, { timeout: 10_000 });
    await minter.orders.cancel({ auctionId: cancelled.auctionId, orderId: cancelled.orderId });
    expect((await waiting).status).toBe('cancelled');

    const unfilled = await minter.orders.place(mintParams('100', '4', 'fallback'));
    rig.venue.sim.clearAuction();
    const order = await minter.orders.waitForOutcome(unfilled.orderId, { timeout: 10_000 });
    expect([order.status, order.lineage.childOrderId]).toEqual(['unfilled', null]);
  });

  it('times out with WaitTimeoutError carrying the last state; aborts with APIUserAbortError; a missing order is NotFoundError', async () => {
    const minter = clientOf(rig, 'minter');
    const { orderId } = await minter.orders.place(mintParams('100', '4'));
    const late = await minter.orders.waitForOutcome(orderId, { timeout: 150 }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(WaitTimeoutError);
    expect(late).toMatchObject({
      kind: 'MV_WAIT_TIMEOUT',
      orderId,
      timeoutMs: 150,
      lastSeen: { orderId, status: 'pending' },
    });

    const controller = new AbortController();
    const aborted = minter.orders
      .waitForOutcome(orderId, { signal: controller.signal })
      .catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 50);
    expect(await aborted).toBeInstanceOf(APIUserAbortError);
    const before = reads(orderId);
    await expect(minter.orders.waitForOutcome(orderId, { signal: AbortSignal.abort() })).rejects.toThrow(
      APIUserAbortError,
    );
    expect(reads(orderId)).toBe(before);
    await expect(minter.orders.waitForOutcome(randomUUID())).rejects.toThrow(NotFoundError);
  });
});

describe('orders.waitForOutcome beside a stream', () => {
  it('resolves from the stream event without waiting for the next REST read', async () => {
    const minter = clientOf(rig, 'minter');
    const stream = minter.stream.connect();
    cleanups.push(() => stream.close());
    await stream.account().ready;
    const { orderId } = await minter.orders.place(mintParams('100', '4'));
    // The client's open stream is used without being named; REST reads once, then only each minute.
    const outcome = minter.orders.waitForOutcome(orderId, { pollIntervalMs: 60_000, timeout: 10_000 });
    await new Promise((r) => setTimeout(r, 50));
    await clientOf(rig, 'burner').orders.place(burnParams('100', '6'));
    rig.venue.sim.clearAuction();
    expect((await outcome).status).toBe('filled');
    expect(reads(orderId)).toBe(1);
  });

  it('a mirror as the source', async () => {
    const minter = clientOf(rig, 'minter');
    const mirror = minter.account.mirror();
    cleanups.push(() => mirror.close());
    await mirror.ready;
    const { orderId, auctionId } = await minter.orders.place(mintParams('100', '4'));
    const outcome = minter.orders.waitForOutcome(orderId, { stream: mirror, pollIntervalMs: 60_000 });
    await new Promise((r) => setTimeout(r, 50));
    await minter.orders.cancel({ auctionId, orderId });
    expect(await outcome).toEqual(mirror.order(orderId));
    expect(reads(orderId)).toBe(1);
  });

  it('a stream whose account events are all dropped: the periodic REST read still resolves it', async () => {
    // Every account event frame is dropped (the chaos driver's frame proxy at a drop rate of 1).
    const proxy = await startFrameProxy({ upstream: rig.extra.wsUrl, dropRate: 1 });
    cleanups.push(() => proxy.close());
    const minter = new MatchVenue({
      apiKey: SEEDED.minter.apiKey,
      baseUrl: rig.venue.url,
      wsUrl: proxy.wsUrl,
      fetch: rig.wire.fetch,
    });
    const stream = minter.stream.connect();
    cleanups.push(() => stream.close());
    expect(await stream.account().ready).toBe(true);
    const { orderId } = await minter.orders.place(mintParams('100', '4'));
    // The wait's first read answers before the auction clears (the wait's code loads on first use,
    // so its first read is not made by the time waitForOutcome returns): a later read resolves it.
    const firstRead = new Promise<void>((resolve) => {
      const off = minter.on('response', (e) => {
        if (e.operation !== 'getOrder') return;
        off();
        resolve();
      });
    });
    const outcome = minter.orders.waitForOutcome(orderId, { stream, pollIntervalMs: 100, timeout: 10_000 });
    await firstRead;
    await clientOf(rig, 'burner').orders.place(burnParams('100', '6'));
    rig.venue.sim.clearAuction();
    expect((await outcome).status).toBe('filled');
    // The events existed and never reached the client.
    expect(proxy.stats().accountEventsDropped).toBeGreaterThan(0);
    expect(proxy.stats().accountEventsForwarded).toBe(0);
    expect(reads(orderId)).toBeGreaterThanOrEqual(2);
  });
});

describe('orders.waitForOutcome input', () => {
  it('refuses bad input before sending anything, naming what is wrong', async () => {
    const sent: string[] = [];
    const client = new MatchVenue({
      apiKey: SEEDED.minter.apiKey,
      baseUrl: 'http://127.0.0.1:9',
      fetch: async (input) => {
        sent.push(String(input));
        return new Response('{}', { status: 500 });
      },
    });
    const id = randomUUID();
    const bad = await client.orders.waitForOutcome('not-a-uuid').catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).path).toBe('orderId');
    await expect(client.orders.waitForOutcome(undefined as never)).rejects.toThrow(/orderId: is required/);
    await expect(client.orders.waitForOutcome(id, { timeout: -1 })).rejects.toThrow(InvalidArgumentError);
    await expect(client.orders.waitForOutcome(id, { timeout: Number.NaN })).rejects.toThrow(/timeout/);
    await expect(client.orders.waitForOutcome(id, { pollIntervalMs: 0 })).rejects.toThrow(/pollIntervalMs/);
    await expect(client.orders.waitForOutcome(id, { childGraceMs: -2 })).rejects.toThrow(/childGraceMs/);
    await expect(client.orders.waitForOutcome(id, { signal: 'x' as never })).rejects.toThrow(/signal/);
    await expect(client.orders.waitForOutcome(id, { stream: {} as never })).rejects.toThrow(/stream/);
    expect(sent).toEqual([]);
  });
});
