import { connect } from 'node:net';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { DroppedResponseError } from '../../src/simulator/http/handler.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BURNER, codeOf, expectError, key, MINTER, newDriver } from './helpers.js';

describe('faults and rate limiting', () => {
  it('errorRate 1: 503 code -1 and nothing applied', async () => {
    const d = newDriver();
    await d.call('POST', '/_sim/faults', null, { errorRate: 1 });
    expectError(await d.burn('100.00'), 503, -1);
    await d.call('POST', '/_sim/faults', null, {});
    expect((await d.list(BURNER.apiKey)).pagination.total).toBe(0);
  });

  it('/_sim/state.faults is exactly what GET /_sim/faults answers, after each setting', async () => {
    const d = newDriver();
    const same = async () => {
      const faults = (await d.call('GET', '/_sim/faults', null)).body as { data: unknown };
      const state = (await d.call('GET', '/_sim/state', null)).body as { data: { faults: unknown } };
      expect(state.data.faults).toEqual(faults.data);
      return faults.data;
    };
    expect(await same()).toEqual({});
    await d.call('POST', '/_sim/faults', null, { errorRate: 1 });
    expect(await same()).toEqual({ errorRate: 1 });
    const settings = { latencyMs: 5, dropResponse: 2, failSettlement: ['o-1'], venueWalletInvalid: true };
    await d.call('POST', '/_sim/faults', null, settings);
    expect(await same()).toEqual(settings);
    // A dropped answer counts down in both.
    await d.call('GET', '/v1/match/account', BURNER.apiKey).catch(() => undefined);
    expect(await same()).toMatchObject({ dropResponse: 1 });
    await d.call('POST', '/_sim/faults', null, { failSettlement: 0.5 });
    expect(await same()).toEqual({ failSettlement: 0.5 });
    d.sim.setFaults({});
    expect(await same()).toEqual({});
  });

  it('dropResponse: the request is applied, the in-process caller gets a network-style TypeError', async () => {
    const d = newDriver();
    d.sim.setFaults({ dropResponse: 1 });
    const id = key();
    const req = new Request('http://sim.test/v1/match/orders', {
      method: 'POST',
      headers: { authorization: `Bearer ${MINTER.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        idempotencyKey: id,
        orderType: 'MINT',
        amount: { amount: '100.00', currency: 'USD' },
        postFillAction: 'cancel',
      }),
    });
    const err = await d.sim.handle(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DroppedResponseError);
    expect(err).toBeInstanceOf(TypeError);
    expect((await d.order(id, MINTER.apiKey)).status).toBe('pending');
  });

  it('venueWalletInvalid: GET /v1/match/account answers 400 139001', async () => {
    const d = newDriver();
    await d.call('POST', '/_sim/faults', null, { venueWalletInvalid: true });
    expectError(await d.call('GET', '/v1/match/account', BURNER.apiKey), 400, 139001);
    // An entity without an account still gets 138003 first.
    expectError(await d.call('GET', '/v1/match/account', SEEDED.noaccount.apiKey), 404, 138003);
    await d.call('POST', '/_sim/faults', null, {});
    expect((await d.call('GET', '/v1/match/account', BURNER.apiKey)).status).toBe(200);
  });

  it('killSockets signals the WebSocket layer', async () => {
    const d = newDriver();
    const signals: string[] = [];
    d.sim.onControl((s) => signals.push(s.type));
    await d.call('POST', '/_sim/faults', null, { killSockets: true });
    expect(signals).toEqual(['killSockets']);
  });

  it('rate limit: 429 with Retry-After past the configured budget', async () => {
    const d = newDriver({ rateLimit: { requests: 2, windowMs: 60_000 } });
    expect((await d.call('GET', '/v1/match/orders', BURNER.apiKey)).status).toBe(200);
    expect((await d.call('GET', '/v1/match/orders', BURNER.apiKey)).status).toBe(200);
    const r = await d.call('GET', '/v1/match/orders', BURNER.apiKey);
    expectError(r, 429, -1);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await d.call('GET', '/v1/match/orders', MINTER.apiKey)).status).toBe(200);
  });

  it('reset returns to the seeded state', async () => {
    const d = newDriver();
    await d.placed(d.burn('100.00'));
    await d.call('POST', '/_sim/reset', null);
    expect((await d.list(BURNER.apiKey)).pagination.total).toBe(0);
    expect(d.sim.getState().auction.auctionId).toBe(1);
    expect(codeOf(await d.call('POST', '/_sim/phase', null, { phase: 'closed' }))).toBe(2);
    expectError(await d.call('POST', '/_sim/clock/advance', null, { ms: -1 }), 400, 2);
    expectError(await d.call('POST', '/_sim/clock/advance', null, { ms: 604_800_001 }), 400, 2);
    expectError(await d.call('POST', '/_sim/faults', null, { errorRate: 2 }), 400, 2);
  });
});

describe('over node:http', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('a request target that is no URL is a 400 code 2 with the extended body and a request id', async () => {
    const sim = createSimulator();
    const running = await sim.listen({ port: 0 });
    close = () => sim.close();
    const port = Number(new URL(running.url).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        // An unusable Host is foreign now (403: test/simulator/http/host-parse.test.ts); a target
        // in absolute form that names no valid authority still fails the request-target parse.
        socket.write('GET http://[::1/_sim/state HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (b: Buffer) => {
        text += b.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toMatch(/\r\nx-request-id: req_/);
    expect(JSON.parse(body)).toMatchObject({ code: 2, errors: [{ location: 'url' }] });
  });

  it('serves the same handler with keep-alive; dropResponse destroys the socket', async () => {
    const sim = createSimulator();
    const running = await sim.listen({ port: 0 });
    close = () => sim.close();
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.wsUrl).toBe(running.url.replace('http', 'ws'));
    const res = await fetch(`${running.url}/v1/match/account`, {
      headers: { authorization: `Bearer ${BURNER.apiKey}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(((await res.json()) as { data: { accountId: string } }).data.accountId).toBe(BURNER.accountId);
    const posted = await fetch(`${running.url}/_sim/auctions/clear`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"settle":false}',
    });
    expect(posted.status).toBe(200);
    sim.setFaults({ dropResponse: true });
    await expect(
      fetch(`${running.url}/v1/match/orders`, { headers: { authorization: `Bearer ${BURNER.apiKey}` } }),
    ).rejects.toThrow(TypeError);
    const after = await fetch(`${running.url}/_sim/state`);
    expect(after.status).toBe(200);
  });
});
