import {
  type APIPromise,
  BadRequestError,
  ConflictError,
  ErrorCode,
  isApiError,
  type MatchVenue,
  NotFoundError,
  usd,
  ValidationError,
} from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { burnParams, counted, mintParams, sim, useSimulator, venue } from './simulator-client.js';

useSimulator();

describe('MatchVenue against the simulator over HTTP', () => {
  it('account.retrieve', async () => {
    const { data, response } = await venue('burner').account.retrieve().withResponse();
    expect(data.accountId).toBe(SEEDED.burner.accountId);
    expect(data.exposure).toEqual({ activeOrderCount: 0, mintOrderCount: 0, burnOrderCount: 0 });
    expect(data.stablecoin.available.currency).toBe('USD');
    expect(response.status).toBe(200);
    expect(response.requestId).toMatch(/^req_/);
  });

  it('account errors: 138003 for no account, 137010 for an ineligible entity', async () => {
    const missing = await venue('noaccount')
      .account.retrieve()
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(isApiError(missing, ErrorCode.AccountNotFound)).toBe(true);
    const ineligible = await venue('ineligible')
      .orders.place(burnParams())
      .catch((e: unknown) => e);
    expect(ineligible).toBeInstanceOf(BadRequestError);
    expect(isApiError(ineligible, ErrorCode.EntityNotEligible)).toBe(true);
    expect((ineligible as BadRequestError).info?.retryable).toBe(false);
  });

  it('orders.place (BURN and MINT) and orders.retrieve narrow on orderType', async () => {
    const key = crypto.randomUUID();
    const placed = await venue('burner').orders.place({ ...burnParams(), idempotencyKey: key });
    expect(placed).toEqual({ auctionId: expect.any(Number), orderId: key, status: 'pending' });
    const order = await venue('burner').orders.retrieve(key);
    expect(order.orderType).toBe('BURN');
    if (order.orderType !== 'BURN') throw new Error('expected BURN');
    expect(order.sourceWalletId).toBe(SEEDED.burner.walletId);
    expect(order.amount).toEqual(usd('1000'));
    expect(order.feeBps).toBe('5');

    const mint = await venue('minter').orders.place(mintParams('2000', null));
    const mintOrder = await venue('minter').orders.retrieve(mint.orderId);
    expect(mintOrder.orderType).toBe('MINT');
    expect(mintOrder.sourceWalletId).toBeNull();
    expect(mintOrder.feeBps).toBeNull();
  });

  it('orders.retrieve of an unknown order is a NotFoundError', async () => {
    const err = await venue('burner')
      .orders.retrieve(crypto.randomUUID())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
  });

  it('place replays with the same key; a different body with that key is 409 137004', async () => {
    const burner = venue('burner');
    const key = crypto.randomUUID();
    const first = await burner.orders.place({ ...burnParams(), idempotencyKey: key });
    const again = await burner.orders.place({ ...burnParams(), idempotencyKey: key });
    expect(again).toEqual(first);
    const err = await burner.orders
      .place({ ...burnParams('2000'), idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(isApiError(err, ErrorCode.IdempotencyKeyReused)).toBe(true);
  });

  it('orders.list: one page awaited, every order iterated, filters', async () => {
    const burner = venue('burner');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await burner.orders.place(burnParams(String(100 * (i + 1))))).orderId);
    const page = await burner.orders.list({ pageSize: 2 });
    expect(page.items).toHaveLength(2);
    expect(page.pagination).toEqual({ page: 1, pageSize: 2, total: 5 });
    expect(page.hasNextPage()).toBe(true);
    const second = await page.getNextPage();
    expect(second.pagination.page).toBe(2);
    const all: string[] = [];
    for await (const order of burner.orders.list({ pageSize: 2 })) all.push(order.orderId);
    expect(all.sort()).toEqual([...ids].sort());
    const pages: number[] = [];
    for await (const p of page.iterPages()) pages.push(p.items.length);
    expect(pages).toEqual([2, 2, 1]);
    const last = await await second.getNextPage();
    expect(last.hasNextPage()).toBe(false);
    await expect(last.getNextPage()).rejects.toThrow(/No next page/);

    const mints = await burner.orders.list({ orderType: 'MINT' });
    expect(mints.items).toEqual([]);
    const one = await burner.orders.list({ orderId: ids[2] });
    expect(one.items.map((o) => o.orderId)).toEqual([ids[2]]);
  });

  it('orders.list rejects from after to before sending', async () => {
    const { client, calls } = counted('burner');
    const err = await client.orders
      .list({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]).toMatchObject({
      path: 'to',
      rule: 'must not be earlier than from',
    });
    let iterated = 0;
    await expect(async () => {
      for await (const _ of client.orders.list({ pageSize: 500 })) iterated++;
    }).rejects.toBeInstanceOf(ValidationError);
    expect(iterated).toBe(0);
    expect(calls).toEqual([]);
  });

  it('orders.cancel, orders.modify and orders.cancelAll', async () => {
    const burner = venue('burner');
    const a = await burner.orders.place(burnParams());
    const b = await burner.orders.place(burnParams('200'));
    const c = await burner.orders.place(burnParams('300'));

    const modified = await burner.orders.modify({ auctionId: a.auctionId, orderId: a.orderId, feeBps: '4' });
    expect(modified).toEqual({ auctionId: a.auctionId, orderId: a.orderId, status: 'pending' });
    expect((await burner.orders.retrieve(a.orderId)).feeBps).toBe('4');

    const cancelled = await burner.orders.cancel({ auctionId: b.auctionId, orderId: b.orderId });
    expect(cancelled).toEqual({ auctionId: b.auctionId, orderId: b.orderId, status: 'cancelled' });
    expect((await burner.orders.retrieve(b.orderId)).status).toBe('cancelled');

    const all = await burner.orders.cancelAll();
    expect(all.status).toBe('cancelled');
    expect([...all.orderIds].sort()).toEqual([a.orderId, c.orderId].sort());
    expect((await burner.orders.cancelAll()).orderIds).toEqual([]);
  });

  it('cancel in the lock window is 136001; a less competitive modify is 137005', async () => {
    const burner = venue('burner');
    const a = await burner.orders.place(burnParams('1000', '5'));
    sim.setPhase('lock');
    const err = await burner.orders
      .cancel({ auctionId: a.auctionId, orderId: a.orderId })
      .catch((e: unknown) => e);
    expect(isApiError(err, ErrorCode.AuctionLocked)).toBe(true);
    if (isApiError(err, ErrorCode.AuctionLocked)) {
      expect(err.status).toBe(400);
      expect(err.message).toContain('AuctionLocked (code 136001)');
    }
    const worse = await burner.orders
      .modify({ auctionId: a.auctionId, orderId: a.orderId, feeBps: '6' })
      .catch((e: unknown) => e);
    expect(isApiError(worse, ErrorCode.FeeChangeNotMoreCompetitive)).toBe(true);
    await expect(
      burner.orders.modify({ auctionId: a.auctionId, orderId: a.orderId, feeBps: '3' }),
    ).resolves.toMatchObject({
      status: 'pending',
    });
  });

  it('self-match is 409 137006', async () => {
    const burner = venue('burner');
    await burner.orders.place(burnParams());
    const err = await burner.orders.place(mintParams()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(isApiError(err, ErrorCode.SelfMatch)).toBe(true);
  });

  it('a cleared auction fills both sides; the minter withdraws', async () => {
    const burner = venue('burner');
    const minter = venue('minter');
    const burn = await burner.orders.place(burnParams('1000', null));
    const mint = await minter.orders.place(mintParams('1000', null));
    sim.clearAuction();
    const filled = await burner.orders.retrieve(burn.orderId);
    expect(filled.status).toBe('filled');
    expect(filled.fill?.filledAmount).toEqual(usd('1000'));
    expect((await minter.orders.retrieve(mint.orderId)).status).toBe('filled');

    const withdrawal = await minter.withdrawals.create({
      amount: usd('250'),
      fiatAccountId: SEEDED.minter.fiatAccountId,
    });
    expect(withdrawal.status).toBe('pending');
    expect(withdrawal.id).toMatch(/^[0-9a-f-]{36}$/);
    // The burn side has no venue-only balance to wire out.
    const tooMuch = await burner.withdrawals
      .create({ amount: usd('5000'), fiatAccountId: SEEDED.burner.fiatAccountId })
      .catch((e: unknown) => e);
    expect(isApiError(tooMuch, ErrorCode.WithdrawalExceedsBalance)).toBe(true);
  });

  it('.withResponse() on every method: the status the endpoint table names, headers and request id', async () => {
    const burner = venue('burner');
    const minter = venue('minter');
    const seen: [string, number][] = [];
    async function check<T>(name: string, call: APIPromise<T>): Promise<T> {
      const { data, response } = await call.withResponse();
      expect(response.requestId, name).toMatch(/^req_/);
      expect(response.headers['x-request-id'], name).toBe(response.requestId);
      seen.push([name, response.status]);
      return data;
    }
    const a = await check('orders.place', burner.orders.place(burnParams('1000', null)));
    const b = await check('orders.place', burner.orders.place(burnParams('200')));
    await check('orders.retrieve', burner.orders.retrieve(a.orderId));
    const page = await check('orders.list', burner.orders.list({ pageSize: 1 }));
    expect(page.items).toHaveLength(1);
    await check('orders.list next page', page.getNextPage());
    await check(
      'orders.modify',
      burner.orders.modify({ auctionId: b.auctionId, orderId: b.orderId, feeBps: '4' }),
    );
    await check('orders.cancel', burner.orders.cancel({ auctionId: b.auctionId, orderId: b.orderId }));
    await check('orders.cancelAll', burner.orders.cancelAll());
    await check('stream.ticket', burner.stream.ticket());
    // cancelAll took the burner's orders; a fresh pair clears so the minter has a balance to withdraw.
    await burner.orders.place(burnParams('1000', null));
    await minter.orders.place(mintParams('1000', null));
    sim.clearAuction();
    await check('account.retrieve', minter.account.retrieve());
    await check(
      'withdrawals.create',
      minter.withdrawals.create({ amount: usd('100'), fiatAccountId: SEEDED.minter.fiatAccountId }),
    );
    expect(seen).toEqual([
      ['orders.place', 202],
      ['orders.place', 202],
      ['orders.retrieve', 200],
      ['orders.list', 200],
      ['orders.list next page', 200],
      ['orders.modify', 200],
      ['orders.cancel', 200],
      ['orders.cancelAll', 200],
      ['stream.ticket', 200],
      ['account.retrieve', 200],
      ['withdrawals.create', 201],
    ]);
  });

  it('stream.ticket returns a ticket and its expiry', async () => {
    const ticket = await venue('burner').stream.ticket();
    expect(ticket.ticket.split('.')).toHaveLength(3);
    expect(Date.parse(ticket.expiresAt ?? '')).toBeGreaterThan(Date.now()); // optional to the client; the simulator sends it
  });

  it('validation: amount 150.00 names amount and the multiple-of-100 rule; nothing is sent', async () => {
    const { client, calls } = counted('burner');
    const err = await client.orders.place(burnParams('150')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const issue = (err as ValidationError).issues[0];
    expect(issue?.path).toBe('amount.amount');
    expect(issue?.rule).toBe('must be at least 100 and a multiple of 100');
    expect((err as Error).message).toContain('amount.amount: must be at least 100 and a multiple of 100');
    const mint = await client.orders
      .place({ ...mintParams(), sourceWalletId: 'x' } as unknown as Parameters<
        MatchVenue['orders']['place']
      >[0])
      .catch((e: unknown) => e);
    expect((mint as ValidationError).issues.map((i) => i.path)).toContain('sourceWalletId');
    await expect(client.orders.cancel({ auctionId: 1, orderId: 'nope' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    const badId = await client.orders.retrieve('../account').catch((e: unknown) => e);
    expect((badId as ValidationError).issues).toEqual([
      { path: 'orderId', rule: 'must be a UUID', kind: 'invalid_format' },
    ]);
    await expect(client.orders.retrieve('')).rejects.toThrow(/orderId: is required/);
    await expect(client.orders.resolveUnknown('not-a-key')).rejects.toBeInstanceOf(ValidationError);
    await expect(
      client.withdrawals.create({ amount: usd('0'), fiatAccountId: SEEDED.minter.fiatAccountId }),
    ).rejects.toThrow(/amount\.amount: must be greater than 0/);
    expect(calls).toEqual([]);
  });
});
