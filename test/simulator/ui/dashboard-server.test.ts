/**
 * Issue 21: what the simulator serves for its dashboard, without a browser: the page and its
 * assets under a strict CSP, off unless asked, their exemption from the control token (and
 * nothing else's), the event stream, and the /_sim/ reads the page draws from.
 */
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';

const TOKEN = 'a-control-token-of-24-chars';
const sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function start(options: Parameters<Simulator['listen']>[0] = {}) {
  const sim = createSimulator({ clock: 'manual', logger: { info: () => undefined, error: () => undefined } });
  sims.push(sim);
  return { sim, running: await sim.listen({ port: 0, ...options }) };
}

async function place(sim: Simulator, key: string, body: object): Promise<string> {
  const res = await sim.handle(
    new Request('http://sim/v1/match/orders', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ idempotencyKey: crypto.randomUUID(), postFillAction: 'cancel', ...body }),
    }),
  );
  expect(res.status).toBe(202);
  return ((await res.json()) as { data: { orderId: string } }).data.orderId;
}

describe('/_sim/ui', () => {
  it('is off unless asked; on, the page, script and style come with a CSP that allows nothing inline', async () => {
    const off = await start();
    expect(off.running.uiUrl).toBeUndefined();
    expect((await fetch(`${off.running.url}/_sim/ui`)).status).toBe(404);

    const { running } = await start({ ui: true });
    expect(running.uiUrl).toBe(`${running.url}/_sim/ui`);
    const page = await fetch(running.uiUrl as string);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<style|style=|\son\w+=/);
    for (const [file, type] of [
      ['dashboard.js', 'text/javascript'],
      ['charts.js', 'text/javascript'],
      ['live.js', 'text/javascript'],
      ['dashboard.css', 'text/css'],
    ]) {
      const res = await fetch(`${running.url}/_sim/ui/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await fetch(`${running.url}/_sim/ui/nothing.js`)).status).toBe(404);
    expect((await fetch(`${running.url}/_sim/ui`, { method: 'POST' })).status).toBe(405);
  });

  it('with a control token: the page loads without it, the stream and every read need it, the page never holds it', async () => {
    const { running } = await start({ ui: true, controlToken: TOKEN });
    const page = await fetch(`${running.url}/_sim/ui`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain(TOKEN);
    expect((await fetch(`${running.url}/_sim/ui/dashboard.js`)).status).toBe(200);
    expect((await fetch(`${running.url}/_sim/ui/events`)).status).toBe(401);
    expect((await fetch(`${running.url}/_sim/orders`)).status).toBe(401);
    expect((await fetch(`${running.url}/_sim/ui/nothing`)).status).toBe(401);
    const ok = await fetch(`${running.url}/_sim/orders`, { headers: { 'x-sim-control-token': TOKEN } });
    expect(ok.status).toBe(200);
  });

  it('streams the simulator events as batches', async () => {
    const { sim, running } = await start({ ui: true });
    const res = await fetch(`${running.url}/_sim/ui/events`);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const more = async () => decoder.decode((await reader.read()).value, { stream: true });
    let text = '';
    while (!text.includes('event: hello')) text += await more();
    const orderId = await place(sim, SEEDED.burner.apiKey, {
      orderType: 'BURN',
      amount: { amount: '100.00', currency: 'USD' },
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    while (!text.includes(orderId)) text += await more();
    expect(text).toMatch(/event: batch\ndata: \{"events":\[.*"order.accepted"/);
    expect(text).not.toContain(SEEDED.burner.apiKey);
    await reader.cancel();
  });
});

describe('the reads the dashboard draws from', () => {
  it('GET /_sim/orders lists every entity, newest first, filtered; GET /_sim/auctions the clears', async () => {
    const { sim } = await start();
    const burn = await place(sim, SEEDED.burner.apiKey, {
      orderType: 'BURN',
      amount: { amount: '1000.00', currency: 'USD' },
      feeBps: '5',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    sim.advance(1);
    const mint = await place(sim, SEEDED.minter.apiKey, {
      orderType: 'MINT',
      amount: { amount: '600.00', currency: 'USD' },
      feeBps: '2',
    });
    const read = async (path: string) => {
      const res = await sim.handle(new Request(`http://sim${path}`));
      return { status: res.status, body: (await res.json()) as { data: Record<string, unknown>[] } };
    };
    const all = await read('/_sim/orders');
    expect(all.body.data.map((o) => [o.orderId, o.entityName])).toEqual([
      [mint, 'minter'],
      [burn, 'burner'],
    ]);
    expect((await read('/_sim/orders?side=BURN')).body.data.map((o) => o.orderId)).toEqual([burn]);
    expect(
      (await read(`/_sim/orders?entityId=${SEEDED.minter.entityId}&status=pending`)).body.data,
    ).toHaveLength(1);
    expect((await read('/_sim/orders?limit=1')).body.data).toHaveLength(1);
    expect((await read('/_sim/orders?side=SELL')).status).toBe(400);
    expect((await read('/_sim/orders?limit=0')).status).toBe(400);

    expect((await read('/_sim/auctions')).body.data).toEqual([]);
    const cleared = sim.clearAuction();
    const history = (await read('/_sim/auctions')).body.data;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      auctionId: cleared.auctionId,
      clearingFeeBps: cleared.clearingFeeBps,
      matchedVolume: { amount: '600.00', currency: 'USD' },
    });
    expect((await read('/_sim/orders?status=partial_fill')).body.data.map((o) => o.orderId)).toEqual([burn]);
  });
});
