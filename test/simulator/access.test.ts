/**
 * Issue 24: who can reach a listening simulator. Raw loopback HTTP with the Host and Origin a
 * hostile page (or DNS rebinding) produces, on every /_sim/ route and every write, the WebSocket
 * upgrade, and a server bound to every interface with and without its control token.
 */
import { networkInterfaces } from 'node:os';
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RawConnection, type RawResponse, rawRequest } from '../../bench/raw-http.js';
import { endpoints } from '../../src/generated/endpoints.js';
import { controlRoutes } from '../../src/simulator/http/control-routes.js';
import {
  SNS_CERT_PATH,
  SNS_CONFIRM_PATH,
  SNS_UNSUBSCRIBE_PATH,
} from '../../src/simulator/platform/sns-endpoints.js';

const EVIL = 'https://evil.example';
const AUTH = { authorization: `Bearer ${SEEDED.burner.apiKey}` };
const TOKEN = 'a-control-token-of-24-chars';
const ID = '11111111-2222-4333-8444-555555555555';

const sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function start(options: Parameters<Simulator['listen']>[0] = {}) {
  const sim = createSimulator({ logger: { info: () => undefined, error: () => undefined } });
  sims.push(sim);
  const running = await sim.listen({ port: 0, ...options });
  return { sim, running, port: Number(new URL(running.url).port) };
}

/** One request on its own raw connection: the Host and Origin are exactly what is written. */
async function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  const conn = await RawConnection.open(port);
  try {
    conn.write(rawRequest(method, path, { host: `127.0.0.1:${port}`, ...headers }, body));
    const got = await conn.next(3_000, method === 'HEAD');
    if (typeof got === 'string') throw new Error(`${method} ${path}: ${got}`);
    return got;
  } finally {
    conn.destroy();
  }
}

function json(r: RawResponse): { code?: number; message?: string; data?: unknown } {
  expect(r.headers['content-type']).toBe('application/json');
  return JSON.parse(r.body.toString('utf8'));
}

// Every /_sim/ route with each of its methods: the control table and the platform's SNS stand-ins.
const CONTROL: [string, string][] = [
  ...Object.entries(controlRoutes).flatMap(([path, methods]) =>
    Object.keys(methods).map((m): [string, string] => [m, path]),
  ),
  ['GET', SNS_CERT_PATH],
  ['GET', `${SNS_CONFIRM_PATH}?Token=t`],
  ['GET', `${SNS_UNSUBSCRIBE_PATH}?SubscriptionArn=a`],
  ['GET', '/_sim/platform/state'],
];
// Every write of the contract, venue and platform alike.
const WRITES: [string, string][] = Object.values(endpoints)
  .filter((e) => e.method !== 'GET')
  .map((e) => [e.method, e.path.replace(/\{\w+\}/g, ID)]);

function fingerprint(sim: Simulator): string {
  return JSON.stringify([sim.getState(), sim.platform.state(), sim.faults]);
}

describe('a hostile page cannot drive the simulator', () => {
  it('a foreign Origin gets a JSON 403 naming --cors on every /_sim/ route and every write; nothing changes', async () => {
    const { sim, port } = await start();
    const before = fingerprint(sim);
    for (const [method, path] of [...CONTROL, ...WRITES]) {
      const r = await send(port, method, path, { ...AUTH, origin: EVIL, 'content-type': 'text/plain' }, '{}');
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 403 });
      expect(json(r)).toEqual({ code: -1, message: expect.stringContaining('--cors <origin>') });
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    // The report's attack: reset and clear by a preflight-free text/plain POST.
    expect(fingerprint(sim)).toBe(before);
    // Origin `null` (sandboxed frames) and a no-Origin cross-site fetch (Sec-Fetch-Site) alike.
    expect((await send(port, 'POST', '/_sim/reset', { origin: 'null' })).status).toBe(403);
    expect((await send(port, 'GET', '/_sim/state', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await send(port, 'GET', '/_sim/state', { 'sec-fetch-site': 'same-site' })).status).toBe(403);
  });

  it('a foreign Host (DNS rebinding) gets a JSON 403 naming --allowed-hosts, HTTP reads included', async () => {
    const { port } = await start();
    for (const [method, path] of [...CONTROL, ...WRITES, ['GET', '/v1/match/account']] as const) {
      const r = await send(port, method, path, { ...AUTH, host: `evil.example:${port}` }, '{}');
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 403 });
      const body = json(r);
      expect(body.message).toContain('--allowed-hosts');
      expect(JSON.stringify(body)).not.toContain(SEEDED.burner.apiKey);
    }
    // An absolute-form target naming another host is refused too, whatever Host says.
    const absolute = await send(port, 'GET', `http://evil.example:${port}/_sim/state`);
    expect(absolute.status).toBe(403);
    // A Host with more than host[:port] is not a Host.
    expect((await send(port, 'GET', '/_sim/state', { host: `u@127.0.0.1:${port}` })).status).toBe(403);
  });

  it('clients without Origin (SDK, curl, bots), same-origin pages and typed addresses keep working', async () => {
    const { sim, port } = await start();
    const hosts = [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST.:${port}`,
      `127.7.7.7:${port}`,
      `[::1]:${port}`,
    ];
    for (const host of hosts) expect((await send(port, 'GET', '/_sim/state', { host })).status).toBe(200);
    const own = { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' };
    expect(
      (await send(port, 'POST', '/_sim/auctions/clear', { ...own, 'content-type': 'application/json' }, '{}'))
        .status,
    ).toBe(200);
    expect((await send(port, 'GET', '/_sim/state', { 'sec-fetch-site': 'none' })).status).toBe(200);
    const place = JSON.stringify({
      idempotencyKey: ID,
      orderType: 'BURN',
      amount: { amount: '100.00', currency: 'USD' },
      feeBps: '5',
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    const placed = await send(
      port,
      'POST',
      '/v1/match/orders',
      { ...AUTH, 'content-type': 'application/json' },
      place,
    );
    expect(placed.status).toBe(202);
    // A cross-origin read needs the key and gets no CORS header, so the page cannot read it.
    const read = await send(port, 'GET', `/v1/match/orders/${ID}`, { ...AUTH, origin: EVIL });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    // In process (mock mode, msw, createMockVenue) nothing of this applies.
    const inProcess = await sim.handle(
      new Request('http://evil.example/_sim/reset', { method: 'POST', headers: { origin: EVIL } }),
    );
    expect(inProcess.status).toBe(200);
  });

  it('allowedHosts adds names; cors lets one origin in with CORS headers and a preflight, and no other', async () => {
    const app = 'http://localhost:5173';
    const { port } = await start({ allowedHosts: ['sim.internal', '10.9.8.7'], cors: app });
    expect((await send(port, 'GET', '/_sim/state', { host: `sim.internal:${port}` })).status).toBe(200);
    expect((await send(port, 'GET', '/_sim/state', { host: `SIM.internal` })).status).toBe(200);
    expect((await send(port, 'GET', '/_sim/state', { host: `10.9.8.7:${port}` })).status).toBe(200);
    expect((await send(port, 'GET', '/_sim/state', { host: `other.internal:${port}` })).status).toBe(403);
    const preflight = await send(port, 'OPTIONS', '/v1/match/orders', {
      origin: app,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, x-request-id',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': app,
      'access-control-allow-headers': 'authorization, content-type, x-request-id',
      'access-control-allow-methods': expect.stringContaining('POST'),
    });
    const write = await send(
      port,
      'POST',
      '/_sim/auctions/clear',
      { origin: app, 'content-type': 'application/json' },
      '{}',
    );
    expect(write.status).toBe(200);
    expect(write.headers['access-control-allow-origin']).toBe(app);
    const error = await send(port, 'GET', '/v1/match/account', { origin: app });
    expect([error.status, error.headers['access-control-allow-origin']]).toEqual([401, app]);
    const other = await send(port, 'POST', '/_sim/reset', { origin: 'http://localhost:5174' });
    expect([other.status, other.headers['access-control-allow-origin']]).toEqual([403, undefined]);
    const otherPreflight = await send(port, 'OPTIONS', '/_sim/reset', {
      origin: EVIL,
      'access-control-request-method': 'POST',
    });
    expect([otherPreflight.status, otherPreflight.headers['access-control-allow-origin']]).toEqual([
      403,
      undefined,
    ]);
  });
});

/** Opens a socket and resolves with the status it was answered (101 once open). */
function upgrade(url: string, headers: Record<string, string>, protocols: string[] = ['service-match.v1']) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, body: '' });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (b: Buffer) => {
        body += b.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

describe('the WebSocket upgrade', () => {
  it('refuses a foreign Origin and a foreign Host with 403 before the ticket; same-origin and no Origin proceed', async () => {
    const { sim, running, port } = await start();
    const url = `${running.wsUrl}/v1/match/ws`;
    const foreign = await upgrade(url, { origin: EVIL });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ code: 403, message: expect.stringContaining('--cors') });
    const rebound = await upgrade(url, { host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(foreign.body).message).not.toContain('ticket');
    // Without a ticket the next check answers: the refusals above came first.
    expect((await upgrade(url, {})).status).toBe(401);
    const { ticket } = await sim.tickets.issue(SEEDED.burner.entityId);
    const opened = await upgrade(url, { origin: running.url }, ['service-match.v1', `ticket.${ticket}`]);
    expect(opened.status).toBe(101);
  });
});

describe('off loopback: the control token', () => {
  it('bound to every interface, /_sim/* needs the generated token (401 JSON without); the venue API does not', async () => {
    const { running, port } = await start({ host: '0.0.0.0' });
    expect(running.controlTokenGenerated).toBe(true);
    const token = String(running.controlToken);
    expect(token).toMatch(/^[\w-]{32}$/);
    // Connected through loopback: the Host is loopback, the rule follows the bind address.
    for (const [method, path] of CONTROL.filter(([, p]) => !p.startsWith('/_sim/sns/'))) {
      for (const sent of [undefined, `${token}x`, token.slice(1)]) {
        const r = await send(
          port,
          method,
          path,
          sent === undefined ? {} : { 'x-sim-control-token': sent },
          '{}',
        );
        expect({ method, path, status: r.status }).toEqual({ method, path, status: 401 });
        expect(json(r).message).toContain('x-sim-control-token');
      }
    }
    const ok = await send(port, 'GET', '/_sim/state', { 'x-sim-control-token': token });
    expect(ok.status).toBe(200);
    // SNS stand-ins are called by webhook receivers, with their own token or ARN.
    expect((await send(port, 'GET', SNS_CERT_PATH)).status).toBe(200);
    expect((await send(port, 'GET', '/v1/match/account', AUTH)).status).toBe(200);
    // The token does not open the door to a foreign page.
    const evil = await send(port, 'POST', '/_sim/reset', { 'x-sim-control-token': token, origin: EVIL });
    expect(evil.status).toBe(403);
  });

  it('answers every interface address of this machine as Host, and no other address', async () => {
    const { port } = await start({ host: '0.0.0.0', controlToken: TOKEN });
    const own = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .filter((i) => i.family === 'IPv4')
      .map((i) => i.address);
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) {
      const r = await send(port, 'GET', '/_sim/state', {
        host: `${address}:${port}`,
        'x-sim-control-token': TOKEN,
      });
      expect({ address, status: r.status }).toEqual({ address, status: 200 });
    }
    const stranger = await send(port, 'GET', '/_sim/state', {
      host: `203.0.113.9:${port}`,
      'x-sim-control-token': TOKEN,
    });
    expect(stranger.status).toBe(403);
  });

  it('a token given on loopback is required too; none given there leaves /_sim/ open', async () => {
    const given = await start({ controlToken: TOKEN });
    expect([given.running.controlToken, given.running.controlTokenGenerated]).toEqual([TOKEN, false]);
    expect((await send(given.port, 'GET', '/_sim/state')).status).toBe(401);
    expect((await send(given.port, 'GET', '/_sim/state', { 'x-sim-control-token': TOKEN })).status).toBe(200);
    const open = await start();
    expect([open.running.controlToken, open.running.controlTokenGenerated]).toEqual([undefined, false]);
    expect((await send(open.port, 'GET', '/_sim/state')).status).toBe(200);
  });

  it('/_sim/state shows keys other than the published seeded ones only with the token', async () => {
    const { sim, port } = await start({ controlToken: TOKEN });
    const secret = 'LIVE_API_KEY:private:s3cr3t';
    // An entity that is not one of the published seeded test entities (none can be made over HTTP).
    const burner = sim.state.entities.get(SEEDED.burner.entityId);
    const extra = { ...burner, id: ID, name: 'private', apiKey: secret } as NonNullable<typeof burner>;
    sim.engine.writableState().entities.set(ID, extra);
    const keysOf = (data: unknown) =>
      (data as { entities: { name: string; apiKey: string | null }[] }).entities.map((e) => [
        e.name,
        e.apiKey,
      ]);
    const open = await start();
    open.sim.engine.writableState().entities.set(ID, extra);
    const without = json(await send(open.port, 'GET', '/_sim/state'));
    expect(keysOf(without.data)).toContainEqual(['private', null]);
    expect(keysOf(without.data)).toContainEqual(['burner', SEEDED.burner.apiKey]);
    expect(JSON.stringify(without)).not.toContain(secret);
    const withToken = json(await send(port, 'GET', '/_sim/state', { 'x-sim-control-token': TOKEN }));
    expect(keysOf(withToken.data)).toContainEqual(['private', secret]);
    const inProcess = (await (await sim.handle(new Request('http://sim/_sim/state'))).json()) as {
      data: unknown;
    };
    expect(keysOf(inProcess.data)).toContainEqual(['private', secret]);
  });

  it('refuses malformed options with a RangeError naming the option', async () => {
    const sim = createSimulator();
    sims.push(sim);
    await expect(sim.listen({ port: 0, allowedHosts: ['http://sim.internal'] })).rejects.toThrow(
      /^allowedHosts /,
    );
    await expect(sim.listen({ port: 0, allowedHosts: ['sim.internal:80'] })).rejects.toThrow(
      /^allowedHosts /,
    );
    await expect(sim.listen({ port: 0, cors: '*' })).rejects.toThrow(/^cors takes one origin/);
    await expect(sim.listen({ port: 0, cors: 'https://app.example/page' })).rejects.toThrow(/^cors /);
    await expect(sim.listen({ port: 0, controlToken: 'short' })).rejects.toThrow(/^controlToken must be/);
    await expect(sim.listen({ port: 0, controlToken: 'has a space in the middle' })).rejects.toThrow(
      /^controlToken /,
    );
  });
});
