import net from 'node:net';
import { APIConnectionError, isEvent, MatchVenue, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMockVenue, getMockSimulator } from 'match-venue/testing';

const burn = {
  orderType: 'BURN' as const,
  amount: usd('1000'),
  feeBps: null,
  postFillAction: 'cancel' as const,
  sourceWalletId: SEEDED.burner.walletId,
  fiatAccountId: SEEDED.burner.fiatAccountId,
};
const mint = {
  orderType: 'MINT' as const,
  amount: usd('1000'),
  feeBps: null,
  postFillAction: 'cancel' as const,
};

let savedEnv: string | undefined;
beforeEach(async () => {
  savedEnv = process.env.MATCH_VENUE_ENV;
  (await getMockSimulator()).reset();
});
afterEach(() => {
  if (savedEnv === undefined) delete process.env.MATCH_VENUE_ENV;
  else process.env.MATCH_VENUE_ENV = savedEnv;
});

describe('mock mode', () => {
  it("environment: 'mock' clients share one in-process simulator and trade with each other", async () => {
    const burner = new MatchVenue({ environment: 'mock' });
    const minter = new MatchVenue({ environment: 'mock', apiKey: SEEDED.minter.apiKey });
    expect(burner.environment).toBe('mock');
    const b = await burner.orders.place(burn);
    const m = await minter.orders.place(mint);
    const sim = await getMockSimulator();
    expect(sim).toBe(await getMockSimulator());
    sim.clearAuction();
    expect((await burner.orders.retrieve(b.orderId)).status).toBe('filled');
    expect((await minter.orders.retrieve(m.orderId)).status).toBe('filled');
    expect((await burner.account.retrieve()).accountId).toBe(SEEDED.burner.accountId);
  });

  it('MATCH_VENUE_ENV=mock flips an unchanged client (even one given a real baseUrl) to the simulator', async () => {
    process.env.MATCH_VENUE_ENV = 'mock';
    const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: 'https://venue.example.com' });
    expect(venue.environment).toBe('mock');
    const placed = await venue.orders.place(burn);
    const sim = await getMockSimulator();
    const shared = new MatchVenue({ environment: 'mock' });
    expect((await shared.orders.list()).items.map((o) => o.orderId)).toEqual([placed.orderId]);
    // The order sits in the shared simulator: its BURN holds the burner's wallet, on a manual clock.
    const state = sim.getState();
    expect(state.clock).toBe('manual');
    const wallet = state.entities.flatMap((e) => e.wallets).find((w) => w.id === SEEDED.burner.walletId);
    expect(wallet?.reserved).toEqual(usd('1000'));
  });

  it('opens no socket: option and env var both run in-process', async () => {
    const proto = net.Socket.prototype;
    const original = proto.connect;
    let connects = 0;
    proto.connect = function (this: net.Socket, ...args: unknown[]) {
      connects++;
      return Reflect.apply(original, this, args) as net.Socket;
    } as typeof original;
    try {
      const byOption = new MatchVenue({ environment: 'mock' });
      const placed = await byOption.orders.place(burn);
      expect((await byOption.orders.retrieve(placed.orderId)).status).toBe('pending');
      process.env.MATCH_VENUE_ENV = 'mock';
      const byEnv = new MatchVenue({ apiKey: SEEDED.minter.apiKey, baseUrl: 'https://venue.example.com' });
      await byEnv.orders.place(mint);
      expect((await byEnv.orders.list()).pagination.total).toBe(1);
      expect(connects).toBe(0);
      // The probe sees the default transport dial: a real client against a closed loopback port.
      delete process.env.MATCH_VENUE_ENV;
      const real = new MatchVenue({
        apiKey: SEEDED.burner.apiKey,
        baseUrl: 'http://127.0.0.1:1',
        maxRetries: 0,
      });
      await expect(real.account.retrieve()).rejects.toBeInstanceOf(APIConnectionError);
      expect(connects).toBeGreaterThan(0);
    } finally {
      proto.connect = original;
    }
  });

  it('createMockVenue is isolated and hands out clients per seeded entity', async () => {
    const mock = await createMockVenue({ clock: 'manual' });
    try {
      const burner = mock.client('burner');
      const minter = mock.client('minter');
      const b = await burner.orders.place(burn);
      await minter.orders.place(mint);
      mock.clearAuction();
      const order = await burner.orders.retrieve(b.orderId);
      expect(order.status).toBe('filled');
      expect(order.fill?.filledAmount).toEqual(usd('1000'));
      // Nothing leaked into the shared mock-mode simulator.
      expect((await new MatchVenue({ environment: 'mock' }).orders.list()).pagination.total).toBe(0);
      await expect(mock.client('noaccount').account.retrieve()).rejects.toMatchObject({
        status: 404,
        venueCode: 138003,
      });
      mock.setFaults({ dropResponse: true });
      const dropped = await burner.orders.place({ ...burn, amount: usd('200') });
      expect((await burner.orders.list()).pagination.total).toBe(2);
      mock.setFaults({});
      // The manual clock moves only when told: a full cycle later the next auction takes orders.
      mock.advance(10_000);
      const next = await burner.orders.place({ ...burn, amount: usd('300') });
      expect(next.auctionId).toBe(dropped.auctionId + 1);
    } finally {
      await mock.close();
    }
  });

  it("environment: 'mock' streams from the shared simulator, which starts listening on the first connect", async () => {
    const burner = new MatchVenue({ environment: 'mock' });
    expect(burner.wsUrl).toBeUndefined();
    const stream = burner.stream.connect();
    try {
      const events = stream.account();
      // Once the server confirms the subscription, every account event reaches the iterator.
      expect(await events.ready).toBe(true);
      let next = events.next();
      const placed = await burner.orders.place(burn);
      let accepted: string | undefined;
      for (;;) {
        const result = await next;
        if (result.done) break;
        if (isEvent(result.value, 'order.accepted')) {
          accepted = result.value.data.orderId;
          break;
        }
        next = events.next();
      }
      expect(accepted).toBe(placed.orderId);
    } finally {
      await stream.close();
    }
  });

  it('createMockVenue({ listen: true }) also serves HTTP on loopback', async () => {
    const mock = await createMockVenue({ listen: true });
    try {
      expect(mock.server?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const viaHttp = new MatchVenue({ apiKey: SEEDED.minter.apiKey, baseUrl: mock.server?.url ?? '' });
      expect((await viaHttp.account.retrieve()).accountId).toBe(SEEDED.minter.accountId);
      expect(mock.client('minter').wsUrl).toBe(mock.server?.wsUrl);
    } finally {
      await mock.close();
    }
  });
});

describe('mock mode clock', () => {
  it('starts at the wall-clock time: createdAt is now, a list over the last hour finds the order, a ticket expires in the future', async () => {
    const venue = new MatchVenue({ environment: 'mock' });
    const placed = await venue.orders.place(burn);
    const order = await venue.orders.retrieve(placed.orderId);
    expect(Math.abs(Date.parse(order.createdAt) - Date.now())).toBeLessThan(5_000);
    const lastHour = await venue.orders.list({ from: new Date(Date.now() - 3_600_000).toISOString() });
    expect(lastHour.items.map((o) => o.orderId)).toEqual([placed.orderId]);
    // Optional to the client (a venue may omit it); the simulator always sends it.
    const { expiresAt } = await venue.stream.ticket();
    expect(Date.parse(expiresAt ?? '')).toBeGreaterThan(Date.now());
  });

  it('createMockVenue({ startTime }) pins the clock for replays', async () => {
    const mock = await createMockVenue({ startTime: new Date('2026-03-01T12:00:00Z') });
    try {
      const placed = await mock.client('burner').orders.place(burn);
      const order = await mock.client('burner').orders.retrieve(placed.orderId);
      expect(order.createdAt).toBe('2026-03-01T12:00:00.000Z');
    } finally {
      await mock.close();
    }
  });
});
