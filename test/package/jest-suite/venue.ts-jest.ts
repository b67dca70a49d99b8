// A TypeScript suite through ts-jest, compiled to CommonJS (module commonjs, the classic resolution
// that reads the package's typesVersions): the imports become require, and ts-jest type-checks the
// calls against the package's .d.cts types. The same checks as venue-checks.cjs, typed; no flag.
// Its own tsconfig and Jest config (jest.test.ts writes them; a downstream project's, not the
// repository's, which is why tsconfig.json leaves this folder out).
import { isEvent, MatchVenue, type Money, NotFoundError, type Orders, usd } from 'match-venue';
import { createHandlers } from 'match-venue/msw';
import { SEEDED } from 'match-venue/simulator';
import { createMockVenue, getMockSimulator } from 'match-venue/testing';
import { setupServer } from 'msw/node';

const burn: Orders.PlaceOrderParams = {
  orderType: 'BURN',
  amount: usd('1000'),
  feeBps: null,
  postFillAction: 'cancel',
  sourceWalletId: SEEDED.burner.walletId,
  fiatAccountId: SEEDED.burner.fiatAccountId,
};
const mint: Orders.PlaceOrderParams = {
  orderType: 'MINT',
  amount: usd('1000'),
  feeBps: null,
  postFillAction: 'cancel',
};

beforeEach(async () => (await getMockSimulator()).reset());

test("environment: 'mock' clients trade through the shared simulator", async () => {
  const burner = new MatchVenue({ environment: 'mock' });
  const minter = new MatchVenue({ environment: 'mock', apiKey: SEEDED.minter.apiKey });
  const b = await burner.orders.place(burn);
  const m = await minter.orders.place(mint);
  const sim = await getMockSimulator();
  sim.clearAuction();
  expect((await burner.orders.retrieve(b.orderId)).status).toBe('filled');
  expect((await minter.orders.retrieve(m.orderId)).status).toBe('filled');
});

test("createMockVenue: an isolated venue whose clients and errors are this suite's classes", async () => {
  const mock = await createMockVenue({ clock: 'manual' });
  try {
    const burner = mock.client('burner');
    expect(burner).toBeInstanceOf(MatchVenue);
    const b = await burner.orders.place(burn);
    await mock.client('minter').orders.place(mint);
    mock.clearAuction();
    expect((await burner.orders.retrieve(b.orderId)).fill?.filledAmount).toEqual(usd('1000'));
    const missing: unknown = await mock
      .client('noaccount')
      .account.retrieve()
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).venueCode).toBe(138003);
  } finally {
    await mock.close();
  }
});

test('the msw handlers answer a client that has no transport option', async () => {
  const server = setupServer(...createHandlers(undefined, { baseUrl: 'https://venue.test' }));
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: 'https://venue.test' });
    expect((await venue.account.retrieve()).accountId).toBe(SEEDED.burner.accountId);
    const placed = await venue.orders.place(burn);
    const shared = new MatchVenue({ environment: 'mock' });
    expect((await shared.orders.retrieve(placed.orderId)).status).toBe('pending');
  } finally {
    server.close();
  }
});

test("environment: 'mock' streams: the burner's fill arrives as an event", async () => {
  const burner = new MatchVenue({ environment: 'mock' });
  const minter = new MatchVenue({ environment: 'mock', apiKey: SEEDED.minter.apiKey });
  const stream = burner.stream.connect();
  try {
    const account = stream.account();
    await account.ready;
    const b = await burner.orders.place(burn);
    await minter.orders.place(mint);
    (await getMockSimulator()).clearAuction();
    let filled: Money | undefined;
    for await (const ev of account) {
      if (isEvent(ev, 'order.updated') && ev.data.orderId === b.orderId && ev.data.fill) {
        filled = ev.data.fill.filledAmount;
        break;
      }
    }
    expect(filled).toEqual(usd('1000'));
  } finally {
    await stream.close();
  }
});
