import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { BASE, cli, logLines, request, useCliCleanup } from './cli-process.js';

useCliCleanup();

describe('match-venue-sim request log', { timeout: 60_000 }, () => {
  it('logs a 400 as one line: method, path without its query, status, error code, ms; never a key or a query secret', async () => {
    const sim = cli(['--port', '0', '--clock', 'manual']);
    const [, base] = await sim.waitFor(BASE);
    const bad = await request(String(base), 'POST', '/v1/match/orders?token=hunter2', {
      key: SEEDED.burner.apiKey,
      body: { orderType: 'BURN' },
    });
    expect(bad).toMatchObject({ status: 400, body: { code: 2 } });
    const [line] = await sim.waitFor(/^.*POST \/v1\/match\/orders .*$/m);
    expect(line).toMatch(
      /^\[sim \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] POST \/v1\/match\/orders 400 code 2 \d+(\.\d)? ms$/,
    );
    const ok = await request(String(base), 'GET', '/v1/match/account', { key: SEEDED.burner.apiKey });
    expect(ok.status).toBe(200);
    await sim.waitFor(/GET \/v1\/match\/account 200 \d+(\.\d)? ms$/m);
    expect(sim.out.text.match(/POST \/v1\/match\/orders/g)).toHaveLength(1);
    expect(sim.out.text).not.toContain('hunter2');
    // The banner gives the seeded keys; no log line repeats the one the request carried.
    expect(logLines(sim.out.text)).not.toContain(SEEDED.burner.apiKey);
    expect(await sim.stop()).toBe(0);
  });

  it('logs WebSocket upgrades, 401 without a valid ticket and 101 with one, never the ticket', async () => {
    const sim = cli(['--port', '0', '--clock', 'manual']);
    await sim.waitFor(BASE);
    const [, wsUrl] = await sim.waitFor(/WebSocket URL: (ws:\S+)/);
    const open = (protocols: string[]) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(String(wsUrl), protocols);
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
        ws.once('unexpected-response', (_req, res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        ws.once('error', () => {});
      });
    expect(await open(['service-match.v1', 'ticket.not-a-ticket'])).toBe(401);
    await sim.waitFor(/WS \/v1\/match\/ws 401 code 401 \d+(\.\d)? ms$/m);
    const base = String(wsUrl)
      .replace(/^ws/, 'http')
      .replace(/\/v1\/match\/ws$/, '');
    const ticket = await request(base, 'POST', '/v1/match/ws/ticket', { key: SEEDED.burner.apiKey });
    const t = String(ticket.body.data?.ticket);
    expect(await open(['service-match.v1', `ticket.${t}`])).toBe(101);
    await sim.waitFor(/WS \/v1\/match\/ws 101 \d+(\.\d)? ms$/m);
    expect(sim.out.text).not.toContain(t);
    expect(sim.out.text).not.toContain('not-a-ticket');
    expect(await sim.stop()).toBe(0);
  });

  it('--quiet logs no request (auction phases still)', async () => {
    const sim = cli(['--port', '0', '--clock', 'manual', '--quiet']);
    const [, base] = await sim.waitFor(BASE);
    expect(
      (await request(String(base), 'GET', '/v1/match/orders?from=bad', { key: SEEDED.burner.apiKey })).status,
    ).toBe(400);
    // Logged after the 400 would have been: its line, had there been one, is already out.
    await request(String(base), 'POST', '/_sim/auctions/clear', { body: {} });
    await sim.waitFor(/auction 1 cleared/);
    expect(sim.out.text).toMatch(/^\[sim \S+\] auction 1 settled$/m);
    expect(sim.out.text).not.toMatch(/^\[sim \S+\] (GET|POST) /m);
    expect(await sim.stop()).toBe(0);
  });

  it('--json prints the startup info and every log line as one JSON object per line, keys by id only', async () => {
    const sim = cli(['--port', '0', '--clock', 'manual', '--json', '--start-time', '2026-01-01T00:00:00Z'], {
      FORCE_COLOR: '1',
    });
    await sim.waitFor(/"type":"startup"/);
    const startup = JSON.parse(sim.out.text.split('\n')[0] ?? '') as Record<string, unknown>;
    const base = String(startup.url);
    expect(startup).toMatchObject({
      type: 'startup',
      simTime: '2026-01-01T00:00:00.000Z',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      wsUrl: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/match\/ws$/),
      clock: 'manual',
      entities: expect.arrayContaining([
        {
          name: 'burner',
          keyId: 'TEST_API_KEY:burner',
          apiKey: SEEDED.burner.apiKey,
          walletId: SEEDED.burner.walletId,
          fiatAccountId: SEEDED.burner.fiatAccountId,
        },
      ]),
    });
    await request(base, 'DELETE', '/v1/match/orders', { key: SEEDED.burner.apiKey });
    await request(base, 'POST', '/_sim/auctions/clear', { body: {} });
    await sim.waitFor(/"event":"auction.settled"/);
    expect(await sim.stop()).toBe(0);
    const lines = sim.out.text.trimEnd().split('\n');
    const objects = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // A request's line is written once it is answered: after the events it caused.
    expect(objects.map((o) => o.type)).toEqual([
      'startup',
      'request',
      'auction',
      'auction',
      'auction',
      'auction',
      'request',
      'shutdown',
    ]);
    expect(objects[1]).toEqual({
      type: 'request',
      simTime: '2026-01-01T00:00:00.000Z',
      kind: 'http',
      method: 'DELETE',
      path: '/v1/match/orders',
      status: 405,
      code: -1,
      ms: expect.any(Number),
    });
    expect(objects.find((o) => o.event === 'auction.cleared')).toMatchObject({
      auctionId: 1,
      matchedVolume: '0.00',
    });
    // No colour in JSON, even when forced; no key anywhere.
    expect(sim.out.text).not.toContain('\u001b[');
    // Keys in full in the startup line only (the published test keys); no other line has one.
    expect(objects[0]?.entities).toContainEqual(expect.objectContaining({ apiKey: SEEDED.burner.apiKey }));
    for (const s of Object.values(SEEDED)) expect(lines.slice(1).join('\n')).not.toContain(s.apiKey);
  });

  it('--start-time sets the clock the venue reports; a bad one exits 2 naming the flag', async () => {
    const sim = cli([
      '--port',
      '0',
      '--clock',
      'manual',
      '--start-time',
      String(Date.parse('2026-05-01T09:30:00Z')),
    ]);
    const [, base] = await sim.waitFor(BASE);
    expect(sim.out.text).toMatch(/clock:\s+manual, now 2026-05-01T09:30:00\.000Z/);
    const id = '11111111-2222-4333-8444-555555555599';
    const placed = await request(String(base), 'POST', '/v1/match/orders', {
      key: SEEDED.burner.apiKey,
      body: {
        idempotencyKey: id,
        orderType: 'BURN',
        amount: { amount: '1000.00', currency: 'USD' },
        feeBps: '3',
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      },
    });
    expect(placed).toMatchObject({ status: 202 });
    const order = await request(String(base), 'GET', `/v1/match/orders/${id}`, { key: SEEDED.burner.apiKey });
    expect(order.body.data?.createdAt).toBe('2026-05-01T09:30:00.000Z');
    expect(await sim.stop()).toBe(0);

    const bad = cli(['--start-time', '2026-05-01 09:30']);
    expect((await bad.exited)[0]).toBe(2);
    expect(bad.out.err).toMatch(
      /^match-venue-sim: --start-time must be an ISO 8601 instant with Z or an offset/,
    );
  });
});
