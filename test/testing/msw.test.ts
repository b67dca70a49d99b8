import { isApiError, MatchVenue, usd } from 'match-venue';
import { createHandlers } from 'match-venue/msw';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BASE = 'https://venue.msw.test';
const sim = createSimulator();
const server = setupServer(...createHandlers(sim, { baseUrl: BASE }));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  server.close();
  await sim.close();
});

// msw patches globalThis.fetch when it starts listening; look it up per call.
const viaMsw = (apiKey: string) =>
  new MatchVenue({
    apiKey,
    baseUrl: BASE,
    fetch: (url, init) => globalThis.fetch(url, init),
    retry: { sleep: async () => {} },
  });

describe('msw handlers backed by the simulator', () => {
  it('serves the client through fetch under setupServer', async () => {
    const burner = viaMsw(SEEDED.burner.apiKey);
    const placed = await burner.orders.place({
      orderType: 'BURN',
      amount: usd('500'),
      feeBps: '5',
      postFillAction: 'roll',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    const { data, response } = await burner.orders.retrieve(placed.orderId).withResponse();
    expect(data.orderId).toBe(placed.orderId);
    expect(response.requestId).toMatch(/^req_/);
    const err = await viaMsw('TEST_API_KEY:nobody:x')
      .account.retrieve()
      .catch((e: unknown) => e);
    expect(isApiError(err)).toBe(true);
    expect((err as { status: number }).status).toBe(401);
  });

  it('turns a dropped response into a network error that the client retries safely', async () => {
    const posts: string[] = [];
    const burner = new MatchVenue({
      apiKey: SEEDED.burner.apiKey,
      baseUrl: BASE,
      fetch: (url, init) => {
        if (init.method === 'POST') posts.push(url);
        return globalThis.fetch(url, init);
      },
      retry: { sleep: async () => {} },
    });
    sim.reset();
    sim.setFaults({ dropResponse: true });
    const placed = await burner.orders.place({
      orderType: 'BURN',
      amount: usd('100'),
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    // The first answer was dropped after the simulator placed the order; the retry replayed it.
    expect(posts).toEqual([`${BASE}/v1/match/orders`, `${BASE}/v1/match/orders`]);
    const page = await burner.orders.list();
    expect(page.pagination.total).toBe(1);
    expect(page.items.map((o) => o.orderId)).toEqual([placed.orderId]);
  });

  it('handlers without a baseUrl match any origin on the API paths', async () => {
    const anyOrigin = setupServer(...createHandlers(sim));
    server.close();
    anyOrigin.listen({ onUnhandledRequest: 'error' });
    try {
      const client = new MatchVenue({
        apiKey: SEEDED.minter.apiKey,
        baseUrl: 'https://elsewhere.example',
        fetch: (url, init) => globalThis.fetch(url, init),
      });
      expect((await client.account.retrieve()).accountId).toBe(SEEDED.minter.accountId);
    } finally {
      anyOrigin.close();
      server.listen({ onUnhandledRequest: 'error' });
    }
  });
});
