/**
 * Issue 33: webhooks cannot reach into the host. Bound off loopback, endpoints on (or resolving
 * to) loopback, private or link-local addresses are refused at create and before each delivery,
 * before any connection: the injected fetch records every request the simulator makes and
 * forwards only those to 127.0.0.1 (the "admin service" below), so nothing here leaves loopback,
 * and names resolve through an injected lookup, never DNS.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulator, type RunningSimulator, type Simulator } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/simulator/cli/args.js';
import { isNonPublicAddress } from '../../../src/simulator/platform/endpoint-guard.js';

const KEY = 'TEST_API_KEY:burner:sim';
const FLAG = '--allow-private-webhooks';

interface Admin {
  url: string;
  /** `METHOD /path` of every request it received. */
  received: string[];
  close(): Promise<void>;
}

/** A local service the simulator must not be made to call. */
async function startAdmin(): Promise<Admin> {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Records every request; only 127.0.0.1 is really contacted, anything else gets a canned 200. */
function recordingFetch() {
  const calls: string[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    calls.push(`${init?.method ?? 'GET'} ${url.href}`);
    if (url.hostname === '127.0.0.1') return fetch(input, init);
    return new Response(null, { status: 200 });
  }) as typeof fetch;
  return { fetchFn, calls };
}

/** Names resolve from this table (mutable: a test can rebind a name); unknown names fail. */
function fakeDns(table: Record<string, string[]>) {
  const lookup = async (hostname: string) => {
    const addresses = table[hostname];
    if (addresses === undefined) throw Object.assign(new Error(`no ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address }));
  };
  return { table, lookup };
}

interface Setup {
  sim: Simulator;
  running: RunningSimulator;
  admin: Admin;
  calls: string[];
  dns: ReturnType<typeof fakeDns>;
  post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(listen: { host: string; allowPrivateWebhooks?: boolean }): Promise<Setup> {
  const admin = await startAdmin();
  const { fetchFn, calls } = recordingFetch();
  const dns = fakeDns({ localhost: ['127.0.0.1', '::1'], 'hooks.example.com': ['203.0.113.10'] });
  const sim = createSimulator({ clock: 'manual', fetch: fetchFn, webhookLookup: dns.lookup });
  sim.platform.configure({ retrySchedule: [1, 1] });
  const running = await sim.listen({ ...listen, port: 0 });
  cleanup.push(async () => {
    await sim.platform.idle();
    await sim.close();
    await admin.close();
  });
  const base = `http://127.0.0.1:${new URL(running.url).port}`;
  return {
    sim,
    running,
    admin,
    calls,
    dns,
    async post(path, body) {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
  };
}

const V1 = '/v1/notifications/subscriptions';
const V2 = '/v2/notifications/subscriptions';

function expectNotPublic(answer: { status: number; body: Record<string, unknown> }, endpoint: string): void {
  expect(answer.status, endpoint).toBe(400);
  expect(answer.body.code).toBe(2);
  expect(answer.body.message).toContain(FLAG);
  expect(answer.body.errors).toEqual([
    expect.objectContaining({ location: 'endpoint', error: 'endpoint_not_public', invalidValue: endpoint }),
  ]);
}

describe('off loopback, webhook endpoints on private addresses are refused', () => {
  it('a v1 or v2 create to loopback, private or link-local addresses is 400 naming the flag; nothing is contacted or stored', async () => {
    const s = await setup({ host: '0.0.0.0' });
    expect(s.running.webhookTargets).toBe('public');
    const port = new URL(s.admin.url).port;
    const endpoints = [
      `${s.admin.url}/admin`,
      `http://localhost:${port}/admin`,
      `http://[::1]:${port}/admin`,
      `https://[::ffff:127.0.0.1]:${port}/admin`,
      'https://10.0.0.1/admin',
      'https://172.16.5.4/admin',
      'https://192.168.1.1/admin',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/admin',
      'https://[fd00::1]/admin',
      'https://[fe80::1]/admin',
      'https://0.0.0.0/admin',
    ];
    for (const endpoint of endpoints) {
      expectNotPublic(await s.post(V1, { endpoint }), endpoint);
      expectNotPublic(await s.post(V2, { endpoint, notificationTypes: ['*'] }), endpoint);
    }
    await s.sim.platform.idle();
    expect(s.calls).toEqual([]);
    expect(s.admin.received).toEqual([]);
    const state = s.sim.platform.state();
    expect([state.v1Subscriptions, state.v2Subscriptions, state.deliveries]).toEqual([[], [], []]);
  });

  it('a name is refused when any address it resolves to is private, or when it does not resolve', async () => {
    const s = await setup({ host: '0.0.0.0' });
    s.dns.table['mixed.example.com'] = ['203.0.113.10', '10.1.2.3'];
    const mixed = await s.post(V1, { endpoint: 'https://mixed.example.com/hook' });
    expectNotPublic(mixed, 'https://mixed.example.com/hook');
    expect(mixed.body.message).toContain('mixed.example.com resolves to 10.1.2.3');
    const unknown = await s.post(V2, { endpoint: 'https://nowhere.example.com/hook' });
    expectNotPublic(unknown, 'https://nowhere.example.com/hook');
    expect(unknown.body.message).toContain('could not be resolved (ENOTFOUND)');
    expect(s.calls).toEqual([]);
  });

  it('a name public at create but loopback at delivery: the delivery is not sent, failed, logged without the path or query', async () => {
    const s = await setup({ host: '0.0.0.0' });
    const endpoint = 'https://hooks.example.com/hook?secret=s3cr3t';
    const created = await s.post(V2, { endpoint, notificationTypes: ['*'] });
    expect(created.status).toBe(201);
    expect(s.calls).toEqual([`HEAD ${endpoint}`]);
    s.dns.table['hooks.example.com'] = ['127.0.0.1'];
    const entityId = s.sim.entityForApiKey(KEY)?.entityId ?? '';
    const [record] = await s.sim.platform.publish(entityId, 'order.updated', { orderId: 'o-1' });
    await s.sim.platform.idle();
    expect(record?.state).toBe('failed');
    expect(record?.attempts).toHaveLength(1);
    const error = record?.attempts[0]?.error ?? '';
    expect(error).toContain('hooks.example.com resolves to 127.0.0.1');
    expect(error).toContain(FLAG);
    expect(error).not.toMatch(/s3cr3t|\/hook/);
    expect(s.calls).toEqual([`HEAD ${endpoint}`]);
  });

  it('a subscription made on loopback gets no delivery while a server off loopback is open', async () => {
    const s = await setup({ host: '127.0.0.1' });
    expect(s.running.webhookTargets).toBe('any');
    const endpoint = `${s.admin.url}/hook`;
    expect((await s.post(V2, { endpoint, notificationTypes: ['*'] })).status).toBe(201);
    const open = await s.sim.listen({ host: '0.0.0.0', port: 0 });
    const entityId = s.sim.entityForApiKey(KEY)?.entityId ?? '';
    const [record] = await s.sim.platform.publish(entityId, 'order.updated', { orderId: 'o-1' });
    await s.sim.platform.idle();
    expect(record?.state).toBe('failed');
    expect(s.admin.received).toEqual(['HEAD /hook']);
    await open.close();
  });

  it('a v2 create refused for its body sends no HEAD', async () => {
    const s = await setup({ host: '127.0.0.1' });
    const answer = await s.post(V2, { endpoint: `${s.admin.url}/hook`, notificationTypes: [''] });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(2);
    expect(s.calls).toEqual([]);
    expect(s.admin.received).toEqual([]);
  });
});

describe('the non-public ranges (net.BlockList)', () => {
  it.each([
    ['127.1.2.3', true],
    ['::1', true],
    ['::', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:169.254.169.254', true],
    ['100.64.0.1', true],
    ['172.31.255.255', true],
    ['224.0.0.1', true],
    ['255.255.255.255', true],
    ['ff02::1', true],
    ['fe80::1', true],
    ['fd12:3456::1', true],
    ['8.8.8.8', false],
    ['172.32.0.1', false],
    ['100.128.0.1', false],
    ['2606:4700::1111', false],
    ['::ffff:8.8.8.8', false],
  ])('%s is non-public: %s', (address, expected) => {
    expect(isNonPublicAddress(address)).toBe(expected);
  });
});

describe('local endpoints work as before on loopback and with allowPrivateWebhooks', () => {
  it.each([
    ['bound on loopback', { host: '127.0.0.1' }],
    ['off loopback with allowPrivateWebhooks', { host: '0.0.0.0', allowPrivateWebhooks: true }],
  ])('%s, a v1 subscription to a local endpoint is created and confirmed', async (_, listen) => {
    const s = await setup(listen);
    expect(s.running.webhookTargets).toBe('any');
    const created = await s.post(V1, { endpoint: `${s.admin.url}/hook` });
    expect(created.status).toBe(201);
    await s.sim.platform.idle();
    expect(s.admin.received).toEqual(['POST /hook', 'POST /hook']);
    expect(s.sim.platform.deliveries().map((d) => d.state)).toEqual(['delivered', 'delivered']);
  });

  it(`the CLI's ${FLAG} sets allowPrivateWebhooks (off by default)`, () => {
    expect(parseCliArgs([FLAG], {}).allowPrivateWebhooks).toBe(true);
    expect(parseCliArgs([], {}).allowPrivateWebhooks).toBe(false);
  });
});

describe('an endpoint is a URI (format: uri): no control characters or spaces', () => {
  it.each([
    'https://hooks.example.com/ad\nmin',
    'https://hooks.example.com/a\u0001b',
    'http://127.0.0.1:9/a\tb',
    'https://hooks.example.com/a b',
  ])(
    '%j is 400 code 2 naming endpoint and the rule, alike for v1 and v2, before any request',
    async (endpoint) => {
      const s = await setup({ host: '127.0.0.1' });
      for (const [path, body] of [
        [V1, { endpoint }],
        [V2, { endpoint, notificationTypes: ['*'] }],
      ] as const) {
        const answer = await s.post(path, body);
        expect(answer.status, path).toBe(400);
        expect(answer.body.code).toBe(2);
        expect(answer.body.errors).toEqual([
          expect.objectContaining({
            location: 'endpoint',
            message: expect.stringContaining('without spaces or control characters'),
          }),
        ]);
      }
      expect(s.calls).toEqual([]);
    },
  );
});
