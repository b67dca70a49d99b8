// What a downstream Jest suite does with the package (test/package/jest.test.ts runs it): mock mode,
// createMockVenue, the msw handlers, a stream, and the features whose code loads on first use (the
// mirror, the waits, the telemetry: chunks the package loads itself, under Jest's module system). The plain JavaScript suites (venue.cjs.js loads
// the package with require, venue.esm.js with import) hand in the modules they loaded, so the way
// the package was loaded is each suite's own; the checks are the same. Jest's globals, as a
// downstream suite uses them.

/**
 * @param {{ sdk: typeof import('match-venue'), simulator: typeof import('match-venue/simulator'),
 *   testing: typeof import('match-venue/testing'),
 *   msw?: { handlers: typeof import('match-venue/msw'), node: typeof import('msw/node') } }} modules
 *   msw is left out by a suite that cannot load msw itself (see venue.cjs.js).
 */
exports.venueChecks = ({ sdk, simulator, testing, msw }) => {
  const { MatchVenue, NotFoundError, isEvent, usd } = sdk;
  const { SEEDED } = simulator;
  const burn = {
    orderType: 'BURN',
    amount: usd('1000'),
    feeBps: null,
    postFillAction: 'cancel',
    sourceWalletId: SEEDED.burner.walletId,
    fiatAccountId: SEEDED.burner.fiatAccountId,
  };
  const mint = { orderType: 'MINT', amount: usd('1000'), feeBps: null, postFillAction: 'cancel' };

  beforeEach(async () => (await testing.getMockSimulator()).reset());

  test("environment: 'mock' clients trade through the shared simulator", async () => {
    const burner = new MatchVenue({ environment: 'mock' });
    const minter = new MatchVenue({ environment: 'mock', apiKey: SEEDED.minter.apiKey });
    const b = await burner.orders.place(burn);
    const m = await minter.orders.place(mint);
    const sim = await testing.getMockSimulator();
    // Test support lives in match-venue/testing only: the main entry has no mock-mode names.
    expect(Object.keys(sdk).filter((name) => /mock/i.test(name))).toEqual([]);
    sim.clearAuction();
    expect((await burner.orders.retrieve(b.orderId)).status).toBe('filled');
    expect((await minter.orders.retrieve(m.orderId)).status).toBe('filled');
  });

  test("createMockVenue: an isolated venue whose clients and errors are this suite's classes", async () => {
    const mock = await testing.createMockVenue({ clock: 'manual' });
    try {
      const burner = mock.client('burner');
      // The testing entry made the client: it must be the suite's MatchVenue, not a second copy.
      expect(burner).toBeInstanceOf(MatchVenue);
      const b = await burner.orders.place(burn);
      await mock.client('minter').orders.place(mint);
      mock.clearAuction();
      expect((await burner.orders.retrieve(b.orderId)).fill.filledAmount).toEqual(usd('1000'));
      const missing = await mock
        .client('noaccount')
        .account.retrieve()
        .catch((e) => e);
      expect(missing).toBeInstanceOf(NotFoundError);
      expect(missing.venueCode).toBe(138003);
    } finally {
      await mock.close();
    }
  });

  if (msw) {
    test('the msw handlers answer a client that has no transport option', async () => {
      const handlers = msw.handlers.createHandlers(undefined, { baseUrl: 'https://venue.test' });
      const server = msw.node.setupServer(...handlers);
      server.listen({ onUnhandledRequest: 'error' });
      try {
        const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: 'https://venue.test' });
        expect((await venue.account.retrieve()).accountId).toBe(SEEDED.burner.accountId);
        const placed = await venue.orders.place(burn);
        // Through msw into the shared mock-mode simulator: a mock-mode client sees the order.
        const shared = new MatchVenue({ environment: 'mock' });
        expect((await shared.orders.retrieve(placed.orderId)).status).toBe('pending');
      } finally {
        server.close();
      }
    });
  }

  test('the account mirror, the waits and a hook load their code on first use and work', async () => {
    const burner = new MatchVenue({ environment: 'mock' });
    const minter = new MatchVenue({ environment: 'mock', apiKey: SEEDED.minter.apiKey });
    const sent = [];
    burner.on('request', (e) => sent.push(e.name));
    const mirror = burner.account.mirror();
    try {
      await mirror.ready;
      const b = await burner.orders.place(burn);
      await minter.orders.place(mint);
      (await testing.getMockSimulator()).clearAuction();
      expect((await burner.orders.waitForOutcome(b.orderId, { timeout: 10_000 })).status).toBe('filled');
      const seen = await mirror.waitFor(b.orderId, (o) => o.status === 'filled', { timeout: 10_000 });
      expect(seen.fill.filledAmount).toEqual(usd('1000'));
      expect(sent).toContain('orders.place');
    } finally {
      await mirror.close();
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
      (await testing.getMockSimulator()).clearAuction();
      let filled;
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
};
