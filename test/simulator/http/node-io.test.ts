/**
 * Issue 23: node:http answers a request with no body by its framing at once, takes a body that
 * arrived whole from the stream's buffer, and reads any other through events. Each framing, and
 * the faults that make the path wait, must give the answers (and request-log entries) they gave
 * when every request waited for its 'end'. Raw loopback sockets, so the framing is exactly as written.
 */
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { RawConnection, type RawResponse, rawRequest } from '../../../bench/raw-http.js';
import type { RequestLogEntry } from '../../../src/simulator/http/request-log.js';

const AUTH = { authorization: `Bearer ${SEEDED.burner.apiKey}` };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

interface Served {
  port: number;
  log: RequestLogEntry[];
  orderId: string;
  auctionId: number;
}

/** A simulator on loopback with one resting order, logging every request. */
async function serve(): Promise<Served> {
  sim = createSimulator({ clock: 'manual', seed: 3 });
  const placed = await sim.handle(
    new Request('http://127.0.0.1/v1/match/orders', {
      method: 'POST',
      headers: JSON_AUTH,
      body: JSON.stringify({
        idempotencyKey: '00000000-0000-4000-8000-0000000000d1',
        orderType: 'BURN',
        amount: { amount: '100.00', currency: 'USD' },
        feeBps: '2',
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      }),
    }),
  );
  const order = ((await placed.json()) as { data: { orderId: string; auctionId: number } }).data;
  const log: RequestLogEntry[] = [];
  const running = await sim.listen({ port: 0, onRequest: (entry) => log.push(entry) });
  return { port: Number(new URL(running.url).port), log, ...order };
}

async function next(conn: RawConnection): Promise<RawResponse> {
  const got = await conn.next(3_000);
  if (typeof got === 'string') throw new Error(`no answer: ${got}`);
  return got;
}

function body(r: RawResponse): unknown {
  return JSON.parse(r.body.toString('utf8'));
}

const UNEXPECTED_BODY = {
  code: 2,
  message: 'Invalid request: this operation takes no request body',
  errors: [
    { error: 'unexpected_body', message: 'must be empty: the operation takes no body', location: 'body' },
  ],
};

const head = (method: string, path: string, headers: Record<string, string>) =>
  `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

describe('a GET by its framing (answered without waiting for the body)', () => {
  it.each([
    ['no Content-Length, no Transfer-Encoding', {}, ''],
    ['Content-Length: 0', { 'content-length': '0' }, ''],
    ['an empty chunked body', { 'transfer-encoding': 'chunked' }, '0\r\n\r\n'],
  ])('%s: 200 with the order', async (_name, framing, rest) => {
    const s = await serve();
    const conn = await RawConnection.open(s.port);
    conn.write(head('GET', `/v1/match/orders/${s.orderId}`, { ...AUTH, ...framing }) + rest);
    const got = await next(conn);
    expect(got.status).toBe(200);
    expect((body(got) as { data: { orderId: string; status: string } }).data).toMatchObject({
      orderId: s.orderId,
      status: 'pending',
    });
    conn.destroy();
    expect(s.log).toEqual([
      {
        kind: 'http',
        method: 'GET',
        path: `/v1/match/orders/${s.orderId}`,
        status: 200,
        ms: expect.any(Number),
      },
    ]);
  });

  it.each([
    ['a Content-Length body', { 'content-length': '2' }, '{}'],
    ['a chunked body', { 'transfer-encoding': 'chunked' }, '2\r\n{}\r\n0\r\n\r\n'],
  ])('with %s: 400 code 2 unexpected_body, logged with its code', async (_name, framing, rest) => {
    const s = await serve();
    const conn = await RawConnection.open(s.port);
    conn.write(head('GET', '/v1/match/account', { ...AUTH, ...framing }) + rest);
    const got = await next(conn);
    expect({ status: got.status, body: body(got) }).toEqual({ status: 400, body: UNEXPECTED_BODY });
    expect(got.headers['x-request-id']).toMatch(/^req_/);
    conn.destroy();
    expect(s.log).toEqual([
      {
        kind: 'http',
        method: 'GET',
        path: '/v1/match/account',
        status: 400,
        code: 2,
        ms: expect.any(Number),
      },
    ]);
  });

  it('three GETs written at once (pipelined) are answered in order on the one connection', async () => {
    const s = await serve();
    const conn = await RawConnection.open(s.port);
    conn.write(
      ['a', 'b', 'c'].map((id) => head('GET', '/v1/match/account', { ...AUTH, 'x-request-id': id })).join(''),
    );
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const got = await next(conn);
      expect(got.status).toBe(200);
      ids.push(got.headers['x-request-id'] ?? '');
    }
    expect(ids).toEqual(['a', 'b', 'c']);
    conn.destroy();
  });
});

describe('a POST body, however it arrives', () => {
  const modify = (s: Served, feeBps: string) =>
    JSON.stringify({ auctionId: s.auctionId, orderId: s.orderId, feeBps });
  const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
  const pause = () => new Promise((resolve) => setTimeout(resolve, 30));

  async function feeOf(s: Served): Promise<string> {
    const res = await (sim as Simulator).handle(
      new Request(`http://127.0.0.1/v1/match/orders/${s.orderId}`, { headers: AUTH }),
    );
    return ((await res.json()) as { data: { feeBps: string } }).data.feeBps;
  }

  it.each([
    ['with its headers, by Content-Length', false, false],
    ['after its headers, by Content-Length', false, true],
    ['with its headers, chunked', true, false],
    ['after its headers, chunked in two pieces', true, true],
  ])('%s: read whole and applied once', async (_name, chunked, late) => {
    const s = await serve();
    const text = modify(s, '7');
    const conn = await RawConnection.open(s.port);
    const framing: Record<string, string> = chunked
      ? { 'transfer-encoding': 'chunked' }
      : { 'content-length': String(Buffer.byteLength(text)) };
    const start = head('POST', '/v1/match/orders/modify', { ...JSON_AUTH, ...framing });
    const payload = chunked ? [chunk(text.slice(0, 10)), `${chunk(text.slice(10))}0\r\n\r\n`] : [text];
    if (late) {
      conn.write(start);
      for (const piece of payload) {
        await pause();
        conn.write(piece);
      }
    } else conn.write(start + payload.join(''));
    const got = await next(conn);
    expect({ status: got.status, body: body(got) }).toEqual({
      status: 200,
      body: { data: { auctionId: s.auctionId, orderId: s.orderId, status: 'pending' } },
    });
    expect(await feeOf(s)).toBe('7');
    conn.destroy();
  });

  it('two POSTs written at once each get their own body', async () => {
    const s = await serve();
    const conn = await RawConnection.open(s.port);
    conn.write(
      Buffer.concat([
        rawRequest(
          'POST',
          '/v1/match/orders/modify',
          { ...JSON_AUTH, 'x-request-id': 'one' },
          modify(s, '5'),
        ),
        rawRequest('POST', '/v1/match/orders/modify', { ...JSON_AUTH, 'x-request-id': 'two' }, '{"a":'),
      ]),
    );
    const first = await next(conn);
    const second = await next(conn);
    expect([first.status, first.headers['x-request-id']]).toEqual([200, 'one']);
    expect([second.status, second.headers['x-request-id']]).toEqual([400, 'two']);
    expect((body(second) as { message: string }).message).toBe('Request body is not valid JSON');
    expect(await feeOf(s)).toBe('5');
    conn.destroy();
  });

  it('a chunked body past 1 MiB sent at once is 413, logged with code -1', async () => {
    const s = await serve();
    const conn = await RawConnection.open(s.port);
    const big = 'x'.repeat(600_000);
    conn.write(
      head('POST', '/v1/match/orders/modify', { ...JSON_AUTH, 'transfer-encoding': 'chunked' }) +
        chunk(big) +
        chunk(big) +
        '0\r\n\r\n',
    );
    const got = await next(conn);
    expect({ status: got.status, body: body(got) }).toEqual({
      status: 413,
      body: { code: -1, message: 'Request body larger than 1048576 bytes' },
    });
    await conn.closed;
    expect(s.log.map(({ status, code }) => ({ status, code }))).toEqual([{ status: 413, code: -1 }]);
  });
});

describe('faults over node:http (where the path waits)', () => {
  it('latency delays the answer; the request is still answered 200', async () => {
    const s = await serve();
    (sim as Simulator).setFaults({ latencyMs: 120 });
    const conn = await RawConnection.open(s.port);
    const started = performance.now();
    conn.write(head('GET', `/v1/match/orders/${s.orderId}`, AUTH));
    const got = await next(conn);
    expect(got.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    conn.destroy();
  });

  it('errorRate 1 is 503 code -1 with an x-request-id, and nothing is applied', async () => {
    const s = await serve();
    (sim as Simulator).setFaults({ errorRate: 1 });
    const conn = await RawConnection.open(s.port);
    conn.write(
      rawRequest('POST', '/v1/match/orders/modify', { ...JSON_AUTH, 'x-request-id': 'e1' }, modify503(s)),
    );
    const got = await next(conn);
    expect({ status: got.status, id: got.headers['x-request-id'], body: body(got) }).toEqual({
      status: 503,
      id: 'e1',
      body: { code: -1, message: 'Simulated outage (fault injection); the request was not applied' },
    });
    conn.destroy();
    (sim as Simulator).setFaults({});
    const res = await (sim as Simulator).handle(
      new Request(`http://127.0.0.1/v1/match/orders/${s.orderId}`, { headers: AUTH }),
    );
    expect(((await res.json()) as { data: { feeBps: string } }).data.feeBps).toBe('2');
  });

  it('dropResponse closes the socket unanswered, logs status null, and applies the request', async () => {
    const s = await serve();
    (sim as Simulator).setFaults({ dropResponse: 1 });
    const conn = await RawConnection.open(s.port);
    conn.write(rawRequest('POST', '/v1/match/orders/modify', JSON_AUTH, modify503(s)));
    expect(await conn.next(3_000)).toBe('closed');
    expect(s.log.map(({ status }) => status)).toEqual([null]);
    const res = await (sim as Simulator).handle(
      new Request(`http://127.0.0.1/v1/match/orders/${s.orderId}`, { headers: AUTH }),
    );
    expect(((await res.json()) as { data: { feeBps: string } }).data.feeBps).toBe('9');
  });
});

function modify503(s: Served): string {
  return JSON.stringify({ auctionId: s.auctionId, orderId: s.orderId, feeBps: '9' });
}
