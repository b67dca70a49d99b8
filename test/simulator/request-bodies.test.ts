/**
 * Issue 18 point 4: a request body is JSON where the contract gives the operation one (else 415
 * naming application/json) and absent where it gives none (else 400 code 2), on the venue and
 * platform operations and on `/_sim/*` alike; a path key id is a UUID (else 400 code 2).
 */
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { RawConnection, type RawResponse, rawRequest } from '../../bench/raw-http.js';

const AUTH = { authorization: `Bearer ${SEEDED.minter.apiKey}` };
const MINT = JSON.stringify({
  idempotencyKey: '00000000-0000-4000-8000-0000000000b1',
  orderType: 'MINT',
  amount: { amount: '100.00', currency: 'USD' },
  postFillAction: 'cancel',
});

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  sim ??= createSimulator();
  const res = await sim.handle(
    new Request(`http://sim.test${path}`, { method, headers: { ...AUTH, ...headers }, body: body ?? null }),
  );
  return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> };
}

const MEDIA = /request bodies must be sent as application\/json \(charset utf-8 allowed\)/;

describe('the media type of a request body', () => {
  it.each([
    ['text/plain', 'text/plain'],
    ['text/plain;charset=UTF-8 (what fetch sends for a bare string)', 'text/plain;charset=UTF-8'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['JSON in another charset', 'application/json; charset=iso-8859-1'],
    ['a JSON look-alike', 'application/jsonx'],
  ])('%s on place is 415 code -1 naming application/json; nothing is placed', async (_name, type) => {
    const r = await send('POST', '/v1/match/orders', { 'content-type': type }, MINT);
    expect(r.status).toBe(415);
    expect(r.body).toEqual({ code: -1, message: expect.stringMatching(MEDIA) });
    expect(r.body.message).toContain(type);
    const list = await send('GET', '/v1/match/orders', {});
    expect((list.body.data as { pagination: { total: number } }).pagination.total).toBe(0);
  });

  it('a body without any Content-Type is 415 too', async () => {
    sim = createSimulator();
    const res = await sim.handle(
      new Request('http://sim.test/v1/match/orders', {
        method: 'POST',
        headers: AUTH,
        body: new TextEncoder().encode(MINT),
      }),
    );
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 415,
      body: { code: -1, message: expect.stringContaining('got no Content-Type') },
    });
  });

  it.each(['application/json', 'Application/JSON; charset=utf-8', 'application/json;charset="UTF-8"'])(
    '%s is accepted',
    async (type) => {
      expect((await send('POST', '/v1/match/orders', { 'content-type': type }, MINT)).status).toBe(202);
    },
  );

  it('holds on the platform and /_sim/ routes; a missing body stays the route’s own answer', async () => {
    const text = { 'content-type': 'text/plain' };
    const endpoint = JSON.stringify({ endpoint: 'https://hooks.example/a' });
    expect((await send('POST', '/v1/notifications/subscriptions', text, endpoint)).status).toBe(415);
    expect((await send('POST', '/_sim/clock/advance', text, '{"ms":1}')).status).toBe(415);
    expect((await send('POST', '/_sim/faults', text, '{}')).status).toBe(415);
    // No body is no media type: 400 where a body is required, `{}` where every field is optional.
    expect((await send('POST', '/v1/match/orders', {})).body).toMatchObject({ code: 2 });
    expect((await send('POST', '/_sim/auctions/clear', {})).status).toBe(200);
  });
});

describe('a body on an operation that takes none', () => {
  it.each([
    ['POST', '/v1/match/orders/cancel-all'],
    ['POST', '/v1/match/ws/ticket'],
    ['DELETE', '/v1/notifications/subscriptions/00000000-0000-4000-8000-0000000000d1'],
    // `/_sim/` actions without parameters take `{}` as no body: test/simulator/http/http-semantics.test.ts.
  ])('%s %s with a body is 400 code 2 naming the rule', async (method, path) => {
    const r = await send(method, path, { 'content-type': 'application/json' }, '{}');
    expect(r).toEqual({
      status: 400,
      body: {
        code: 2,
        message: 'Invalid request: this operation takes no request body',
        errors: [
          {
            error: 'unexpected_body',
            message: 'must be empty: the operation takes no body',
            location: 'body',
          },
        ],
      },
    });
  });

  it('the same calls without a body are served', async () => {
    expect((await send('POST', '/v1/match/orders/cancel-all', {})).status).toBe(200);
    expect((await send('POST', '/v1/match/ws/ticket', {})).status).toBe(200);
    expect((await send('POST', '/_sim/auctions/settle', {})).status).toBe(200);
  });

  it('a GET with a body over node:http is 400 code 2 (a web Request cannot carry it to the handler)', async () => {
    sim = createSimulator();
    const port = Number(new URL((await sim.listen({ port: 0 })).url).port);
    const conn = await RawConnection.open(port);
    const answers: RawResponse[] = [];
    for (const path of ['/v1/match/account', '/_sim/state']) {
      conn.write(rawRequest('GET', path, { ...AUTH, 'content-type': 'application/json' }, '{}'));
      const got = await conn.next(3_000);
      if (typeof got === 'string') throw new Error(`no answer: ${got}`);
      answers.push(got);
    }
    conn.destroy();
    for (const a of answers)
      expect({ status: a.status, body: JSON.parse(a.body.toString('utf8')) }).toMatchObject({
        status: 400,
        body: { code: 2, errors: [{ error: 'unexpected_body' }] },
      });
  });
});

describe('the key id of the notification public key', () => {
  it('is 400 code 2 when not a UUID, 404 when a UUID of no key', async () => {
    const bad = await send('GET', '/v2/notifications/publicKey/not-a-uuid', {});
    expect(bad).toMatchObject({ status: 400, body: { code: 2, errors: [{ location: 'keyId' }] } });
    const unknown = await send('GET', '/v2/notifications/publicKey/00000000-0000-4000-8000-0000000000e1', {});
    expect(unknown.status).toBe(404);
  });
});
