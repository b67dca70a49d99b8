import { randomUUID } from 'node:crypto';
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import type { OrderPage, ReconcilableOrder, StreamHost } from '../../src/stream/index.js';

export { extraSocketServer, take, until } from './socket-server.js';

export type SeededName = 'burner' | 'minter';

export interface Venue {
  sim: Simulator;
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

/** A manual-clock simulator served on 127.0.0.1:0 (REST + its own WebSocket). */
export async function startVenue(options: Parameters<typeof createSimulator>[0] = {}): Promise<Venue> {
  const sim = createSimulator({ clock: 'manual', maxOrdersPerAuction: 10_000, ...options });
  const running = await sim.listen({ host: '127.0.0.1', port: 0 });
  return {
    sim,
    url: running.url,
    wsUrl: running.wsUrl,
    close: async () => {
      await running.close();
      await sim.close();
    },
  };
}

export function auth(name: SeededName): Record<string, string> {
  return { authorization: `Bearer ${SEEDED[name].apiKey}`, 'content-type': 'application/json' };
}

export async function issueTicket(url: string, name: SeededName): Promise<string> {
  const res = await fetch(`${url}/v1/match/ws/ticket`, { method: 'POST', headers: auth(name) });
  if (res.status !== 200) throw new Error(`ticket: HTTP ${res.status}`);
  const body = (await res.json()) as { data: { ticket: string } };
  return body.data.ticket;
}

export async function placeOrder(
  url: string,
  name: SeededName,
  side: 'BURN' | 'MINT',
  amount = '100.00',
): Promise<string> {
  const idempotencyKey = randomUUID();
  const body =
    side === 'BURN'
      ? {
          idempotencyKey,
          orderType: 'BURN',
          amount: { amount, currency: 'USD' },
          feeBps: '6',
          postFillAction: 'cancel',
          sourceWalletId: SEEDED[name].walletId,
          fiatAccountId: SEEDED[name].fiatAccountId,
        }
      : {
          idempotencyKey,
          orderType: 'MINT',
          amount: { amount, currency: 'USD' },
          feeBps: '4',
          postFillAction: 'cancel',
        };
  const res = await fetch(`${url}/v1/match/orders`, {
    method: 'POST',
    headers: auth(name),
    body: JSON.stringify(body),
  });
  if (res.status !== 202) throw new Error(`place: HTTP ${res.status} ${await res.text()}`);
  return idempotencyKey;
}

export interface TestHost extends StreamHost {
  tickets: string[];
  /** While set, ticket() waits for it: lets a test act while the client is disconnected. */
  gate: Promise<void> | undefined;
}

export function hostFor(url: string, wsUrl: string, name: SeededName): TestHost {
  const host: TestHost = {
    wsUrl,
    tickets: [],
    gate: undefined,
    async ticket() {
      if (host.gate) await host.gate;
      const ticket = await issueTicket(url, name);
      host.tickets.push(ticket);
      return { ticket, expiresAt: new Date(Date.now() + 30_000).toISOString() };
    },
    async *listOrders(query): AsyncIterable<OrderPage> {
      for (let page = 1; ; page++) {
        const qs = new URLSearchParams({ page: String(page), pageSize: '100' });
        if (query.status) qs.set('status', query.status);
        if (query.from) qs.set('from', query.from);
        if (query.orderId) qs.set('orderId', query.orderId);
        const res = await fetch(`${url}/v1/match/orders?${qs}`, { headers: auth(name) });
        const body = (await res.json()) as {
          data: {
            orders: ReconcilableOrder[];
            pagination: { page: number; pageSize: number; total: number };
          };
        };
        const seq = res.headers.get('x-account-seq');
        yield seq === null
          ? { orders: body.data.orders }
          : { orders: body.data.orders, accountSeq: Number(seq) };
        if (page * body.data.pagination.pageSize >= body.data.pagination.total) return;
      }
    },
  };
  return host;
}
