import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  MatchVenue,
  OutcomeUnknownError,
  RateLimitError,
  usd,
} from 'match-venue';
import { subMoney } from '../../src/core/money.js';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { burnParams, mintParams, sim, useSimulator, venue } from './simulator-client.js';

useSimulator();

describe('retries and unknown outcomes against the simulator', () => {
  it('a dropped response after the order was placed is retried with the same key: exactly one order', async () => {
    const delays: number[] = [];
    const burner = venue('burner', { retry: { sleep: async (ms) => void delays.push(ms) } });
    const before = await burner.account.retrieve();
    const key = crypto.randomUUID();
    sim.setFaults({ dropResponse: true });
    const placed = await burner.orders.place({ ...burnParams('1000'), idempotencyKey: key });
    // The venue placed the order and its answer was lost: the client retried once, with the same key.
    expect(delays).toHaveLength(1);
    expect(placed.orderId).toBe(key);
    const page = await burner.orders.list();
    expect(page.pagination.total).toBe(1);
    expect(page.items.map((o) => o.orderId)).toEqual([key]);
    const after = await burner.account.retrieve();
    expect(after.exposure.activeOrderCount).toBe(1);
    expect(subMoney(after.stablecoin.reserved, before.stablecoin.reserved)).toEqual(usd('1000'));
  });

  it('a dropped response with a generated key: the retry reuses it, so one order exists', async () => {
    const sent: string[] = [];
    const burner = venue('burner', {
      fetch: (input, init) => {
        if (init.method === 'POST') sent.push(String(init.body));
        return fetch(input, init);
      },
    });
    sim.setFaults({ dropResponse: true });
    const placed = await burner.orders.place(burnParams());
    expect(sent).toHaveLength(2);
    const keys = sent.map((body) => (JSON.parse(body) as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toEqual([placed.orderId, placed.orderId]);
    const page = await burner.orders.list();
    expect(page.items.map((o) => o.orderId)).toEqual([placed.orderId]);
  });

  it('503 then success', async () => {
    sim.setFaults({ errorRate: 1 });
    const delays: number[] = [];
    const burner = venue('burner', {
      retry: {
        sleep: async (ms) => {
          delays.push(ms);
          sim.setFaults({});
        },
      },
    });
    const placed = await burner.orders.place(burnParams());
    expect(placed.status).toBe('pending');
    expect(delays).toHaveLength(1);
    expect((await burner.orders.list()).pagination.total).toBe(1);
  });

  it('429 from the rate limiter: waits what Retry-After says', async () => {
    const limited = createSimulator({ rateLimit: { requests: 1, windowMs: 5_000 } });
    const server = await limited.listen();
    try {
      const delays: number[] = [];
      const client = new MatchVenue({
        apiKey: SEEDED.burner.apiKey,
        baseUrl: server.url,
        maxRetries: 1,
        retry: { sleep: async (ms) => void delays.push(ms) },
      });
      await client.account.retrieve();
      const err = await client.account.retrieve().catch((e: unknown) => e);
      // The window is still closed after the (skipped) wait, so the retry is limited as well.
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as RateLimitError).headers['retry-after']).toBe('5');
      expect(delays).toEqual([5_000]);
    } finally {
      await limited.close();
    }
  });

  it('every attempt dropped: OutcomeUnknownError carries the key and resolveUnknown finds the order', async () => {
    const burner = venue('burner');
    sim.setFaults({ dropResponse: 3 });
    const err = await burner.orders.place(burnParams()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    const unknown = err as OutcomeUnknownError;
    expect(unknown.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(unknown.orderId).toBe(unknown.idempotencyKey);
    expect(unknown.attempts).toBe(3);
    const resolved = await burner.orders.resolveUnknown(unknown);
    expect(resolved.status === 'found' && resolved.order.orderId).toBe(unknown.idempotencyKey);
    expect((await burner.orders.list()).pagination.total).toBe(1);
  });

  it('every attempt 503: OutcomeUnknownError, and resolveUnknown reports no order for now', async () => {
    const burner = venue('burner');
    sim.setFaults({ errorRate: 1 });
    const err = await burner.orders.place(burnParams()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    sim.setFaults({});
    await expect(burner.orders.resolveUnknown(err as OutcomeUnknownError)).resolves.toEqual({
      status: 'absent',
      final: false,
      settlesAt: (err as OutcomeUnknownError).settlesAt,
    });
    // Placing again with the same key is safe and creates it once.
    const again = await burner.orders.place({
      ...burnParams(),
      idempotencyKey: (err as OutcomeUnknownError).idempotencyKey,
    });
    expect(again.orderId).toBe((err as OutcomeUnknownError).idempotencyKey);
  });

  it('withdrawal outcome unknown: resolveUnknown replays the same key and gets one withdrawal', async () => {
    const minter = venue('minter');
    await venue('burner').orders.place(burnParams('1000', null));
    await minter.orders.place(mintParams('1000', null));
    sim.clearAuction();
    const before = await minter.account.retrieve();
    sim.setFaults({ dropResponse: 3 });
    const err = await minter.withdrawals
      .create({ amount: usd('100'), fiatAccountId: SEEDED.minter.fiatAccountId })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    const first = await minter.withdrawals.resolveUnknown(err as OutcomeUnknownError);
    const second = await minter.withdrawals.resolveUnknown(err as OutcomeUnknownError);
    expect(first).toMatchObject({
      status: 'found',
      withdrawal: { id: (err as OutcomeUnknownError).idempotencyKey, status: 'pending' },
    });
    expect(second).toEqual(first);
    const after = await minter.account.retrieve();
    expect(subMoney(before.stablecoin.available, after.stablecoin.available)).toEqual(usd('100'));
  });

  it('an aborted place carries its key; resolveUnknown settles it', async () => {
    sim.setFaults({ latencyMs: 200 });
    const controller = new AbortController();
    const burner = venue('burner');
    const pending = burner.orders.place(burnParams(), { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIUserAbortError);
    const key = (err as APIUserAbortError).idempotencyKey ?? '';
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // The simulator still applies the request once its latency has passed.
    await new Promise((r) => setTimeout(r, 300));
    sim.setFaults({});
    const found = await burner.orders.resolveUnknown(err as APIUserAbortError);
    expect(found.status === 'found' && found.order.orderId).toBe(key);
    // A key this client has no record of counts as unknown from now: never final too early.
    const stranger = await burner.orders.resolveUnknown(crypto.randomUUID());
    expect(stranger).toMatchObject({ status: 'absent', final: false });
  });

  it('abort: the caller signal ends the call', async () => {
    sim.setFaults({ latencyMs: 300 });
    const controller = new AbortController();
    const pending = venue('burner').account.retrieve({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('total timeout: the budget ends the call across retries', async () => {
    sim.setFaults({ latencyMs: 300 });
    const err = await venue('burner', { totalTimeout: 100 })
      .account.retrieve()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
  });
});
