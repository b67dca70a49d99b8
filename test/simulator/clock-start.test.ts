import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterEach, describe, expect, it, vi } from 'vitest';

const BURNER = SEEDED.burner;
const MINTER = SEEDED.minter;

async function call(sim: Simulator, method: string, path: string, apiKey: string | null, body?: unknown) {
  const headers: Record<string, string> = {};
  if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await sim.handle(
    new Request(`http://sim.test${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  return { status: res.status, text, data: (JSON.parse(text) as { data: Record<string, unknown> }).data };
}

function burn(sim: Simulator, idempotencyKey: string, amount = '1000.00') {
  return call(sim, 'POST', '/v1/match/orders', BURNER.apiKey, {
    idempotencyKey,
    orderType: 'BURN',
    amount: { amount, currency: 'USD' },
    feeBps: '5',
    postFillAction: 'cancel',
    sourceWalletId: BURNER.walletId,
    fiatAccountId: BURNER.fiatAccountId,
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the manual clock starts at the wall-clock time', () => {
  it("a frozen simulator's first order is created now, and a list over the last hour finds it", async () => {
    const sim = createSimulator({ clock: 'manual' });
    const id = '11111111-2222-4333-8444-000000000001';
    expect((await burn(sim, id)).status).toBe(202);
    const order = await call(sim, 'GET', `/v1/match/orders/${id}`, BURNER.apiKey);
    expect(Math.abs(Date.parse(String(order.data.createdAt)) - Date.now())).toBeLessThan(5_000);

    const from = new Date(Date.now() - 3_600_000).toISOString();
    const list = await call(sim, 'GET', `/v1/match/orders?from=${from}`, BURNER.apiKey);
    expect((list.data.orders as Array<{ orderId: string }>).map((o) => o.orderId)).toEqual([id]);
    // The auction it sits in is the one open now, not one in the past.
    expect(Date.parse(String(sim.getState().auction.clearsAt))).toBeGreaterThan(Date.now());
  });

  it("a ticket's expiresAt is in the future by the wall clock", async () => {
    const sim = createSimulator();
    const { status, data } = await call(sim, 'POST', '/v1/match/ws/ticket', BURNER.apiKey);
    expect(status).toBe(200);
    const left = Date.parse(String(data.expiresAt)) - Date.now();
    expect(left).toBeGreaterThan(25_000);
    expect(left).toBeLessThanOrEqual(31_000);
    await sim.close();
  });

  it('/_sim/clock/advance moves on from the wall-clock start', async () => {
    const before = Date.now();
    const sim = createSimulator();
    const after = Date.now();
    const { data } = await call(sim, 'POST', '/_sim/clock/advance', null, { ms: 60_000 });
    const now = Date.parse(String(data.now));
    expect(now).toBeGreaterThanOrEqual(before + 60_000);
    expect(now).toBeLessThanOrEqual(after + 60_000);
  });
});

describe('startTime', () => {
  /** A short session: orders, a clear, a ticket-free read of everything a bot would read. */
  async function session(startTime: Date | string | number): Promise<string[]> {
    const sim = createSimulator({ clock: 'manual', startTime });
    const bodies: string[] = [];
    bodies.push((await burn(sim, '11111111-2222-4333-8444-000000000010')).text);
    bodies.push(
      (
        await call(sim, 'POST', '/v1/match/orders', MINTER.apiKey, {
          idempotencyKey: '11111111-2222-4333-8444-000000000011',
          orderType: 'MINT',
          amount: { amount: '400.00', currency: 'USD' },
          feeBps: '3',
          postFillAction: 'cancel',
        })
      ).text,
    );
    sim.advance(2_500);
    bodies.push((await call(sim, 'POST', '/_sim/auctions/clear', null, {})).text);
    for (const key of [BURNER.apiKey, MINTER.apiKey]) {
      bodies.push((await call(sim, 'GET', '/v1/match/orders', key)).text);
      bodies.push((await call(sim, 'GET', '/v1/match/account', key)).text);
    }
    bodies.push(
      (await call(sim, 'GET', '/v1/match/orders/11111111-2222-4333-8444-000000000010', BURNER.apiKey)).text,
    );
    await sim.close();
    return bodies;
  }

  it('as a Date, an ISO string or epoch ms gives byte-identical REST bodies, whatever the wall clock says', async () => {
    const start = '2026-03-01T12:00:00.000Z';
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2030-06-01T00:00:00Z') });
    const a = await session(new Date(start));
    vi.setSystemTime(Date.parse('2031-01-15T08:30:00.250Z'));
    const b = await session(start);
    vi.setSystemTime(Date.parse('2029-12-31T23:59:59.999Z'));
    const c = await session(Date.parse(start));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    // The session really stamps instants, and they are the start's.
    expect(a.join('\n')).toContain('"createdAt":"2026-03-01T12:00:00.000Z"');
    expect(a.join('\n')).toContain('"matchedAt":"2026-03-01T12:00:02.500Z"');
  });

  it('a real clock runs on from startTime at wall-clock speed', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2030-06-01T00:00:00Z') });
    const sim = createSimulator({ clock: 'real', startTime: '2026-01-01T00:00:00Z' });
    expect(sim.now()).toBe(Date.parse('2026-01-01T00:00:00Z'));
    vi.setSystemTime(Date.parse('2030-06-01T00:00:01.5Z'));
    expect(sim.now()).toBe(Date.parse('2026-01-01T00:00:01.500Z'));
    void sim.close();
  });

  it.each([
    ['a time without a zone (read in the local zone, so not replayable)', '2026-01-01T00:00:00'],
    ['prose', 'yesterday'],
    ['a day that does not exist', '2026-02-30'],
    ['a fractional epoch', 1_767_225_600_000.5],
    ['a negative epoch', -1],
    ['an invalid Date', new Date('nope')],
    ['NaN', Number.NaN],
  ])('refuses %s with a RangeError naming startTime', (_what, startTime) => {
    expect(() => createSimulator({ startTime })).toThrow(RangeError);
    expect(() => createSimulator({ startTime })).toThrow(
      /^startTime must be an ISO 8601 instant with Z or an offset/,
    );
  });

  it('accepts a date alone (UTC midnight) and an offset', () => {
    expect(createSimulator({ startTime: '2026-01-01' }).now()).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(createSimulator({ startTime: '2026-01-01T01:00:00+01:00' }).now()).toBe(
      Date.parse('2026-01-01T00:00:00Z'),
    );
  });
});
