/**
 * Issue 33 (point 7): HTTP as generic tools (schemathesis, curl) expect it. HEAD answers a GET
 * route like GET without the body (RFC 9110 9.3.2); any other method a path does not serve is 405
 * with the path's `Allow` (TRACE included), decided before the key and the body; a `/_sim/` action
 * without parameters takes `{}` as no body. Both bindings: node:http (raw bytes, so the wire is
 * what is checked) and the web handler (`sim.handle`).
 */
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { RawConnection, type RawResponse, rawRequest } from '../../../bench/raw-http.js';
import { endpoints } from '../../../src/generated/endpoints.js';
import { controlRoutes } from '../../../src/simulator/http/control-routes.js';
import { SNS_CONFIRM_PATH } from '../../../src/simulator/platform/sns-endpoints.js';

const AUTH = { authorization: `Bearer ${SEEDED.burner.apiKey}` };
const JSON_TYPE = { 'content-type': 'application/json' };
const ID = '00000000-0000-4000-8000-0000000000c1';

const sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

function fresh(): Simulator {
  const sim = createSimulator({ clock: 'manual', seed: 7, logger: { info: () => {}, error: () => {} } });
  sims.push(sim);
  return sim;
}

async function served(): Promise<{ sim: Simulator; conn: RawConnection }> {
  const sim = fresh();
  const running = await sim.listen({ port: 0, ui: true });
  const conn = await RawConnection.open(Number(new URL(running.url).port));
  return { sim, conn };
}

/** One request on the open connection; its answer (a HEAD's has no body to wait for). */
async function exchange(
  conn: RawConnection,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  conn.write(rawRequest(method, path, headers, body));
  const got = await conn.next(5_000, method === 'HEAD');
  if (typeof got === 'string') throw new Error(`${method} ${path}: ${got}`);
  return got;
}

function web(
  sim: Simulator,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  return sim.handle(new Request(`http://127.0.0.1${path}`, { method, headers, body: body ?? null }));
}

const json = (r: RawResponse): unknown => JSON.parse(r.body.toString('utf8'));
const state = (sim: Simulator) => JSON.stringify([sim.getState(), sim.platform.state(), sim.faults]);

// GET routes of every kind: venue, platform, `/_sim/` and the platform's own `/_sim/` reads.
const GETS: [string, Record<string, string>][] = [
  ['/v1/match/account', AUTH],
  [`/v1/match/orders/${ID}`, AUTH],
  ['/v1/configuration', AUTH],
  ['/_sim/state', {}],
  ['/_sim/auctions/current', {}],
  ['/_sim/platform/state', {}],
];

describe('HEAD is GET without the body', () => {
  it.each(GETS)('HEAD %s over node:http: the GET status and headers, no body', async (path, headers) => {
    const { conn } = await served();
    const get = await exchange(conn, 'GET', path, headers);
    const head = await exchange(conn, 'HEAD', path, headers);
    expect({
      status: head.status,
      type: head.headers['content-type'],
      length: head.headers['content-length'],
    }).toEqual({
      status: get.status,
      type: get.headers['content-type'],
      length: String(get.body.length),
    });
    // No body bytes followed the HEAD's head: the next answer on the connection parses as the GET's.
    const again = await exchange(conn, 'GET', path, headers);
    expect(again.status).toBe(get.status);
    conn.destroy();
  });

  it.each(GETS)(
    'HEAD %s in process: the GET status and content type, an empty body',
    async (path, headers) => {
      const sim = fresh();
      const get = await web(sim, 'GET', path, headers);
      const head = await web(sim, 'HEAD', path, headers);
      expect({
        status: head.status,
        type: head.headers.get('content-type'),
        body: await head.text(),
      }).toEqual({
        status: get.status,
        type: get.headers.get('content-type'),
        body: '',
      });
      expect(head.headers.get('x-request-id')).toMatch(/^req_/);
    },
  );

  it('the dashboard: HEAD on its page and on its event stream answers the headers and ends', async () => {
    const { conn } = await served();
    const page = await exchange(conn, 'GET', '/_sim/ui');
    const head = await exchange(conn, 'HEAD', '/_sim/ui');
    expect([head.status, head.headers['content-length'], head.body.length]).toEqual([
      200,
      String(page.body.length),
      0,
    ]);
    const events = await exchange(conn, 'HEAD', '/_sim/ui/events');
    expect([events.status, events.headers['content-type']]).toEqual([
      200,
      'text/event-stream; charset=utf-8',
    ]);
    // The stream was not opened: the connection answers the next request.
    expect((await exchange(conn, 'GET', '/_sim/state')).status).toBe(200);
    conn.destroy();
  });

  it('HEAD applies nothing: on a GET that changes state (the SNS SubscribeURL) and on a POST-only path it is 405', async () => {
    const { sim, conn } = await served();
    const before = state(sim);
    const confirm = await exchange(conn, 'HEAD', `${SNS_CONFIRM_PATH}?Token=t`);
    expect([confirm.status, confirm.headers.allow]).toEqual([405, 'GET']);
    const reset = await exchange(conn, 'HEAD', '/_sim/reset');
    expect([reset.status, reset.headers.allow]).toEqual([405, 'POST']);
    const settle = await web(sim, 'HEAD', '/_sim/auctions/settle');
    expect([settle.status, settle.headers.get('allow')]).toEqual([405, 'POST']);
    expect(state(sim)).toBe(before);
    conn.destroy();
  });
});

// Every path of the contract and of `/_sim/`, with the methods it serves (HEAD wherever GET is).
const contractPaths: Record<string, string[]> = {};
for (const e of Object.values(endpoints)) {
  const path = e.path.replace(/\{\w+\}/g, ID);
  contractPaths[path] = [...(contractPaths[path] ?? []), e.method];
}
const PATHS: [string, string[]][] = [
  ...Object.entries(contractPaths).map(([path, methods]): [string, string[]] => [path, withHead(methods)]),
  ...Object.entries(controlRoutes).map(([path, methods]): [string, string[]] => [
    path.replace('{auctionId}', '1'),
    withHead(Object.keys(methods)),
  ]),
  ['/_sim/ui', ['GET', 'HEAD']],
  [SNS_CONFIRM_PATH, ['GET']],
];

function withHead(methods: string[]): string[] {
  return methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
}

const sorted = (allow: string | undefined) => allow?.split(', ').sort();

describe('405 with Allow on every path, before the key and the body', () => {
  it('TRACE, OPTIONS and every method a path does not serve: 405 code -1 naming the method, with the Allow of the path', async () => {
    const { conn } = await served();
    const seen: string[] = [];
    for (const [path, allow] of PATHS)
      for (const method of ['TRACE', 'OPTIONS', 'PUT', 'PATCH', 'DELETE', 'POST', 'GET'].filter(
        (m) => !allow.includes(m),
      )) {
        const r = await exchange(conn, method, path, AUTH);
        expect({ method, path, status: r.status, allow: sorted(r.headers.allow), body: json(r) }).toEqual({
          method,
          path,
          status: 405,
          allow: [...allow].sort(),
          body: { code: -1, message: `${method} is not allowed on ${path}` },
        });
        seen.push(method);
      }
    expect(new Set(seen)).toEqual(new Set(['TRACE', 'OPTIONS', 'PUT', 'PATCH', 'DELETE', 'POST', 'GET']));
    conn.destroy();
  });

  it('a GET with a body on a POST-only path is 405, not the body refusal; the connection goes on', async () => {
    const { conn } = await served();
    for (const path of ['/v1/match/orders/cancel', '/_sim/reset']) {
      const r = await exchange(conn, 'GET', path, { ...AUTH, ...JSON_TYPE }, '{"orderId":1}');
      expect([r.status, r.headers.allow, json(r)]).toEqual([
        405,
        'POST',
        { code: -1, message: `GET is not allowed on ${path}` },
      ]);
    }
    expect((await exchange(conn, 'GET', '/_sim/state')).status).toBe(200);
    conn.destroy();
  });

  it('the method is judged before the body is read: a 2 MiB body on a GET-only path is 405, not 413', async () => {
    const { conn } = await served();
    const big = 'x'.repeat(2 * 1_048_576);
    const r = await exchange(conn, 'POST', '/v1/match/account', { ...AUTH, ...JSON_TYPE }, big);
    expect([r.status, r.headers.allow, r.headers.connection]).toEqual([405, 'GET, HEAD', 'keep-alive']);
    // The body was read past and dropped: the same connection answers the next request.
    expect((await exchange(conn, 'GET', '/v1/match/account', AUTH)).status).toBe(200);
    conn.destroy();
  });

  it('405 comes before the key, on both bindings', async () => {
    const { sim, conn } = await served();
    const r = await exchange(conn, 'DELETE', '/v1/match/account');
    const inProcess = await web(sim, 'DELETE', '/v1/match/account');
    expect([r.status, r.headers.allow]).toEqual([405, 'GET, HEAD']);
    expect([inProcess.status, inProcess.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    conn.destroy();
  });

  it('a method node:http does not know (FOO) is refused by its parser: 400 code 2, connection closed', async () => {
    const { conn } = await served();
    const r = await exchange(conn, 'FOO', '/v1/match/account', AUTH);
    expect([r.status, r.headers.connection, json(r)]).toEqual([
      400,
      'close',
      {
        code: 2,
        message: 'Malformed HTTP request: Invalid method encountered',
        errors: [{ error: 'HPE_INVALID_METHOD', message: 'Invalid method encountered', location: 'request' }],
      },
    ]);
    conn.destroy();
  });
});

describe('a /_sim/ action without parameters takes {} as no body', () => {
  const ACTIONS = ['/_sim/auctions/settle', '/_sim/reset', '/_sim/snapshot'];
  const EMPTY: [string, Record<string, string>][] = [
    ['{}', JSON_TYPE],
    [' {\n} \n', JSON_TYPE],
    // What `curl -d '{}'` sends without -H.
    ['{}', { 'content-type': 'application/x-www-form-urlencoded' }],
  ];

  it.each(ACTIONS)('POST %s with {} is answered as without a body, on both bindings', async (path) => {
    for (const [body, headers] of EMPTY) {
      const { conn } = await served();
      const r = await exchange(conn, 'POST', path, headers, body);
      expect([path, body, r.status]).toEqual([path, body, 200]);
      conn.destroy();
      const inProcess = await web(fresh(), 'POST', path, headers, body);
      expect([path, body, inProcess.status]).toEqual([path, body, 200]);
    }
  });

  it.each(ACTIONS)('POST %s with a field is still 400 code 2 naming it', async (path) => {
    const { sim, conn } = await served();
    const before = state(sim);
    const r = await exchange(conn, 'POST', path, JSON_TYPE, '{"x":1}');
    expect([r.status, json(r)]).toEqual([
      400,
      {
        code: 2,
        message: 'Invalid request: body Unrecognized key: "x"',
        errors: [
          {
            error: 'unrecognized_keys',
            message: 'Unrecognized key: "x"',
            location: 'body',
            constraints: { keys: ['x'] },
            invalidValue: '{"x":1}',
          },
        ],
      },
    ]);
    for (const other of ['[]', 'null', 'settle', '{}{}'])
      expect(json(await exchange(conn, 'POST', path, JSON_TYPE, other))).toEqual({
        code: 2,
        message: 'Invalid request: this operation takes no request body',
        errors: [
          {
            error: 'unexpected_body',
            message: 'must be empty: the operation takes no body',
            location: 'body',
          },
        ],
      });
    expect(state(sim)).toBe(before);
    conn.destroy();
  });
});
