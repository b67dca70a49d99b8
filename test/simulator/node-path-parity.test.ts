/**
 * Issue 23: node:http serves the venue routes without building a web Request, through the same
 * dispatch as `sim.handle`. Each request here goes to a fresh simulator both ways (raw bytes over
 * loopback, and a Request in process) and must get the same status, headers that matter and body:
 * one set of routes and rules behind both bindings, the BOM and bad UTF-8 decoding included.
 */
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { RawConnection, rawRequest } from '../../bench/raw-http.js';

const AUTH = `Bearer ${SEEDED.burner.apiKey}`;
const ORDER_ID = '00000000-0000-4000-8000-0000000000c1';
const PLACE = JSON.stringify({
  idempotencyKey: ORDER_ID,
  orderType: 'BURN',
  amount: { amount: '100.00', currency: 'USD' },
  feeBps: '2',
  postFillAction: 'cancel',
  sourceWalletId: SEEDED.burner.walletId,
  fiatAccountId: SEEDED.burner.fiatAccountId,
});

interface Case {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

const json = { 'content-type': 'application/json' };
const CASES: Case[] = [
  { name: 'a placement', method: 'POST', path: '/v1/match/orders', headers: json, body: PLACE },
  { name: 'the account', method: 'GET', path: '/v1/match/account' },
  { name: 'a list with a query', method: 'GET', path: '/v1/match/orders?page=1&pageSize=5&status=pending' },
  { name: 'a list with a bad page', method: 'GET', path: '/v1/match/orders?page=0x10' },
  { name: 'an order id that is no UUID', method: 'GET', path: '/v1/match/orders/not-a-uuid' },
  { name: 'an unknown order', method: 'GET', path: `/v1/match/orders/${ORDER_ID}` },
  { name: 'a body on a GET', method: 'GET', path: '/v1/match/account', headers: json, body: '{}' },
  {
    name: 'a body where none belongs',
    method: 'POST',
    path: '/v1/match/ws-ticket',
    headers: json,
    body: '{}',
  },
  {
    name: 'a text/plain body',
    method: 'POST',
    path: '/v1/match/orders/modify',
    headers: { 'content-type': 'text/plain' },
    body: '{}',
  },
  { name: 'invalid JSON', method: 'POST', path: '/v1/match/orders/modify', headers: json, body: '{"a":' },
  {
    name: 'a BOM before the JSON',
    method: 'POST',
    path: '/v1/match/orders',
    headers: json,
    body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(PLACE)]),
  },
  {
    name: 'bad UTF-8',
    method: 'POST',
    path: '/v1/match/orders/cancel',
    headers: json,
    body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]),
  },
  { name: 'a method not allowed', method: 'DELETE', path: '/v1/match/account' },
  { name: 'no route', method: 'GET', path: '/v1/match/nowhere' },
  { name: 'no key', method: 'GET', path: '/v1/match/account', headers: { authorization: '' } },
  {
    name: 'an unknown key',
    method: 'GET',
    path: '/v1/match/account',
    headers: { authorization: 'Bearer TEST_API_KEY:nobody:sim' },
  },
  { name: 'a percent-encoded path', method: 'GET', path: '/v1/match/%61ccount' },
  // The route's parameter is percent-decoded before the UUID check; a malformed escape stays raw.
  {
    name: 'a percent-encoded order id',
    method: 'GET',
    path: `/v1/match/orders/${ORDER_ID.slice(0, -2)}%631`,
  },
  { name: 'a malformed escape in the id', method: 'GET', path: '/v1/match/orders/%zz' },
  { name: 'a control route', method: 'GET', path: '/_sim/faults' },
  // Issue 33: HEAD, 405 before the key and the body, `{}` on a `/_sim/` action without parameters.
  { name: 'HEAD on the account', method: 'HEAD', path: '/v1/match/account' },
  { name: 'HEAD on a control read', method: 'HEAD', path: '/_sim/faults' },
  { name: 'HEAD on a POST-only path', method: 'HEAD', path: '/v1/match/orders/cancel' },
  { name: 'OPTIONS outside a preflight', method: 'OPTIONS', path: '/v1/match/orders' },
  {
    name: 'a method not allowed without a key',
    method: 'DELETE',
    path: '/v1/match/account',
    headers: { authorization: '' },
  },
  {
    name: '{} on a control action',
    method: 'POST',
    path: '/_sim/auctions/settle',
    headers: json,
    body: '{}',
  },
  {
    name: 'a field on a control action',
    method: 'POST',
    path: '/_sim/auctions/settle',
    headers: json,
    body: '{"x":1}',
  },
];

const sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

function fresh(): Simulator {
  const sim = createSimulator({ clock: 'manual', seed: 7 });
  sims.push(sim);
  return sim;
}

/** What must agree: status, content type, Allow, and the body with its generated values masked. */
function shape(status: number, headers: (name: string) => string | null | undefined, body: string) {
  const masked = body.replace(/"(createdAt|updatedAt|expiresAt|ticket|from|to)":"[^"]*"/g, '"$1":"*"');
  return {
    status,
    contentType: headers('content-type') ?? null,
    allow: headers('allow') ?? null,
    body: masked,
  };
}

describe('node:http and the web handler answer alike', () => {
  it.each(CASES)('$name', async (c) => {
    const headers = { authorization: AUTH, 'x-request-id': 'parity-1', ...c.headers };
    if (headers.authorization === '') delete (headers as Record<string, string>).authorization;

    const inProcess = await fresh().handle(
      new Request(`http://127.0.0.1${c.path}`, {
        method: c.method,
        headers,
        ...(c.body === undefined || c.method === 'GET'
          ? {}
          : { body: typeof c.body === 'string' ? c.body : new Uint8Array(c.body) }),
      }),
    );
    const web = shape(inProcess.status, (n) => inProcess.headers.get(n), await inProcess.text());

    const served = await fresh().listen({ port: 0 });
    const conn = await RawConnection.open(Number(new URL(served.url).port));
    try {
      conn.write(rawRequest(c.method, c.path, headers, c.body));
      const answer = await conn.next(5_000, c.method === 'HEAD');
      if (typeof answer === 'string') throw new Error(`no answer: ${answer}`);
      expect(answer.headers['x-request-id']).toBe('parity-1');
      const node = shape(answer.status, (n) => answer.headers[n], answer.body.toString('utf8'));
      // A Request cannot carry a GET body; both refuse it, the web side before the handler.
      if (c.method === 'GET' && c.body !== undefined) expect(node.status).toBe(400);
      else expect(node).toEqual(web);
    } finally {
      conn.destroy();
      await served.close();
    }
  });
});
