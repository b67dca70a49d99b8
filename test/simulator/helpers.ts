import { createSimulator, SEEDED, type Simulator, type SimulatorOptions } from 'match-venue/simulator';
import { expect } from 'vitest';
import { AccountSummary, Order, OrderList } from '../../src/generated/validators.js';
import { parse } from '../helpers/checks.js';

export const BURNER = SEEDED.burner;
export const MINTER = SEEDED.minter;

export interface Reply {
  status: number;
  text: string;
  body: unknown;
  headers: Headers;
}

/** `data` of a success body, or the error `code`; undefined when absent. */
export function dataOf(r: Reply): unknown {
  return (r.body as { data?: unknown } | undefined)?.data;
}
export function codeOf(r: Reply): number | undefined {
  return (r.body as { code?: number } | undefined)?.code;
}

/** Asserts an error answer: HTTP status and body code. */
export function expectError(r: Reply, status: number, code: number): void {
  expect({ status: r.status, code: codeOf(r) }).toEqual({ status, code });
  expect(typeof (r.body as { message?: unknown }).message).toBe('string');
}

let counter = 0;
/** A fresh UUID v4 per call, deterministic within a test file. */
export function key(): string {
  counter++;
  return `00000000-0000-4000-8000-${counter.toString(16).padStart(12, '0')}`;
}

/** Drives a simulator through its one HTTP handler and checks the books after every call. */
export class Driver {
  constructor(readonly sim: Simulator) {}

  async call(method: string, path: string, apiKey: string | null, body?: unknown): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.sim.handle(
      new Request(`http://sim.test${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    this.check();
    return { status: res.status, text, body: parsed, headers: res.headers };
  }

  check(): void {
    expect(this.sim.checkInvariants()).toEqual([]);
  }

  burn(amount: string, extra: Record<string, unknown> = {}, apiKey: string = BURNER.apiKey) {
    const who = apiKey === MINTER.apiKey ? MINTER : BURNER;
    return this.call('POST', '/v1/match/orders', apiKey, {
      idempotencyKey: key(),
      orderType: 'BURN',
      amount: { amount, currency: 'USD' },
      postFillAction: 'cancel',
      sourceWalletId: who.walletId,
      fiatAccountId: who.fiatAccountId,
      ...extra,
    });
  }

  mint(amount: string, extra: Record<string, unknown> = {}, apiKey: string = MINTER.apiKey) {
    return this.call('POST', '/v1/match/orders', apiKey, {
      idempotencyKey: key(),
      orderType: 'MINT',
      amount: { amount, currency: 'USD' },
      postFillAction: 'cancel',
      ...extra,
    });
  }

  /** GET the order, checked against the contract's Order schema. */
  async order(orderId: string, apiKey: string): Promise<Order> {
    const r = await this.call('GET', `/v1/match/orders/${orderId}`, apiKey);
    expect(r.status).toBe(200);
    return parse(Order, dataOf(r));
  }

  async list(apiKey: string, query = ''): Promise<OrderList> {
    const r = await this.call('GET', `/v1/match/orders${query}`, apiKey);
    expect(r.status).toBe(200);
    return parse(OrderList, dataOf(r));
  }

  async account(apiKey: string): Promise<AccountSummary> {
    const r = await this.call('GET', '/v1/match/account', apiKey);
    expect(r.status).toBe(200);
    return parse(AccountSummary, dataOf(r));
  }

  async clear(
    settle = true,
  ): Promise<{ auctionId: number; clearingFeeBps: string; matchedVolume: { amount: string } }> {
    const r = await this.call('POST', '/_sim/auctions/clear', null, { settle });
    expect(r.status).toBe(200);
    return dataOf(r) as { auctionId: number; clearingFeeBps: string; matchedVolume: { amount: string } };
  }

  /** Lands a settled USD wire on the entity's venue-only balance (`POST /_sim/wires`). */
  wire(entityId: string, amount: string): Promise<Reply> {
    return this.call('POST', '/_sim/wires', null, { entityId, amount: { amount, currency: 'USD' } });
  }

  async placed(r: Promise<Reply>): Promise<string> {
    const reply = await r;
    expect(reply.status).toBe(202);
    return (dataOf(reply) as { orderId: string }).orderId;
  }

  /** Balances of a seeded entity as /_sim/state shows them. */
  balances(name: 'burner' | 'minter') {
    const s = this.sim.getState();
    const e = s.entities.find((x) => x.name === name);
    if (!e) throw new Error(`no seeded entity ${name}`);
    return {
      wallet: e.wallets[0]?.balance.amount,
      walletReserved: e.wallets[0]?.reserved.amount,
      fiat: e.fiatAccounts[0]?.balance.amount,
      venue: e.venueBalance.amount,
      venueReserved: e.venueReserved.amount,
    };
  }
}

/** The fixed clock start of `newDriver`, so that expectations can name exact instants. */
export const T0 = '2026-01-01T00:00:00.000Z';

export function newDriver(options: SimulatorOptions = {}): Driver {
  return new Driver(createSimulator({ clock: 'manual', startTime: T0, ...options }));
}

/**
 * A Driver that skips the ledger check: checkInvariants explains the ledgers from every order ever
 * placed, and a simulator with a store takes old orders out of memory. Such a simulator is held
 * equal to one without a store instead, which the usual Driver checks.
 */
export class UncheckedDriver extends Driver {
  override check(): void {}
}
