/**
 * Issue 9 point 3: the simulator stays answerable and answers every fault with a bounded JSON
 * `{code, message}` body, whatever arrives on the wire. Framing cases use raw loopback sockets.
 */
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { RawConnection, type RawResponse, rawRequest } from '../../bench/raw-http.js';

const AUTH = { authorization: `Bearer ${SEEDED.burner.apiKey}`, 'content-type': 'application/json' };
const WAIT_MS = 3_000;

interface Started {
  sim: Simulator;
  port: number;
  logged: string[];
}

let started: Started | undefined;
afterEach(async () => {
  await started?.sim.close();
  started = undefined;
});

async function start(options: Parameters<typeof createSimulator>[0] = {}): Promise<Started> {
  const logged: string[] = [];
  const sim = createSimulator({
    ...options,
    logger: { info: () => undefined, error: (message) => logged.push(message) },
  });
  const running = await sim.listen({ port: 0 });
  started = { sim, port: Number(new URL(running.url).port), logged };
  return started;
}

async function answer(conn: RawConnection, head = false): Promise<RawResponse> {
  const got = await conn.next(WAIT_MS, head);
  if (typeof got === 'string') throw new Error(`expected an answer, the connection gave: ${got}`);
  return got;
}

function json(r: RawResponse): unknown {
  expect(r.headers['content-type']).toBe('application/json');
  return JSON.parse(r.body.toString('utf8'));
}

async function call(sim: Simulator, method: string, path: string, body?: string): Promise<Response> {
  return sim.handle(new Request(`http://sim.test${path}`, { method, headers: AUTH, body: body ?? null }));
}

describe('keep-alive survives answers given without reading the body (issue 9.3a)', () => {
  it.each([
    ['404 unknown path', 'POST', '/nowhere', {}, 404, { code: -1, message: 'No route for POST /nowhere' }],
    [
      '405 wrong method',
      'PUT',
      '/v1/match/account',
      AUTH,
      405,
      { code: -1, message: 'PUT is not allowed on /v1/match/account' },
    ],
    [
      '401 no credential',
      'POST',
      '/v1/match/orders',
      {},
      401,
      { code: 401, message: 'Malformed authorization. Are the credentials properly encoded?' },
    ],
  ] as const)(
    '%s with a 200 KB body, then a second request on the same socket is answered',
    async (_name, method, path, headers, status, body) => {
      const { port } = await start();
      const conn = await RawConnection.open(port);
      conn.write(rawRequest(method, path, headers, 'x'.repeat(200_000)));
      const first = await answer(conn);
      expect({ status: first.status, body: json(first) }).toEqual({ status, body });
      conn.write(rawRequest('GET', '/v1/match/account', AUTH));
      const second = await answer(conn);
      expect(second.status).toBe(200);
      expect((json(second) as { data: { accountId: string } }).data.accountId).toBe(SEEDED.burner.accountId);
      conn.destroy();
    },
  );

  it('a body over 1 MiB is 413 JSON and the connection closes; the answer arrives whole', async () => {
    const { port } = await start();
    const declared = await RawConnection.open(port);
    declared.write(rawRequest('POST', '/v1/match/orders', AUTH, Buffer.alloc(2 * 1_048_576, 0x20)));
    const a = await answer(declared);
    expect({ status: a.status, connection: a.headers.connection, body: json(a) }).toEqual({
      status: 413,
      connection: 'close',
      body: { code: -1, message: 'Request body larger than 1048576 bytes' },
    });
    expect(a.headers['x-request-id']).toMatch(/^req_/);
    await declared.closed;

    // Chunked: no length announced, the bound is found while reading.
    const chunked = await RawConnection.open(port);
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    chunked.write(rawRequest('POST', '/v1/match/orders', { ...AUTH, 'transfer-encoding': 'chunked' }));
    for (let i = 0; i < 6; i++)
      chunked.write(
        Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
      );
    chunked.write('0\r\n\r\n');
    const b = await answer(chunked);
    expect({ status: b.status, body: json(b) }).toEqual({
      status: 413,
      body: { code: -1, message: 'Request body larger than 1048576 bytes' },
    });
    await chunked.closed;
  });
});

describe('bounded error details on platform and venue routes (issue 9.3b)', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const TOO_DEEP = {
    error: 'too_deep',
    message: 'must not nest arrays or objects deeper than 64 levels',
    location: 'body',
    invalidValue: '',
    constraints: {},
  };

  it('a field nested 10,000 deep on a platform route is 400 code 2, not a 500', async () => {
    const { sim, logged } = await start();
    for (const path of ['/v1/notifications/subscriptions', '/v2/notifications/subscriptions']) {
      const res = await call(sim, 'POST', path, `{"endpoint":${deep(10_000)},"notificationTypes":["*"]}`);
      expect({ path, status: res.status, body: await res.json() }).toEqual({
        path,
        status: 400,
        body: { code: 2, message: 'Invalid entity: the body is nested too deeply.', errors: [TOO_DEEP] },
      });
    }
    const venue = await call(sim, 'POST', '/v1/match/orders', `{"amount":${deep(10_000)}}`);
    expect({ status: venue.status, body: await venue.json() }).toEqual({
      status: 400,
      body: {
        code: 2,
        message: 'Request body is nested too deeply',
        errors: [
          {
            error: 'too_deep',
            message: 'must not nest arrays or objects deeper than 64 levels',
            location: 'body',
            constraints: { maximum: 64 },
          },
        ],
      },
    });
    expect(logged).toEqual([]);
  });

  it('a 1 MB invalid value is echoed clipped to 200 characters; the body stays under 4 KiB', async () => {
    const { sim } = await start();
    const huge = 'z'.repeat(1_000_000);
    for (const path of ['/v1/notifications/subscriptions', '/v2/fx/notifications/subscriptions']) {
      const res = await call(sim, 'POST', path, JSON.stringify({ endpoint: huge, notificationTypes: ['*'] }));
      const text = await res.text();
      expect(res.status).toBe(400);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
      expect(JSON.parse(text)).toMatchObject({
        code: 2,
        errors: [{ location: 'endpoint', invalidValue: `${'z'.repeat(200)}…` }],
      });
    }
    const venue = await call(sim, 'POST', '/v1/match/orders', JSON.stringify({ orderType: huge }));
    const text = await venue.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(JSON.parse(text)).toMatchObject({
      code: 2,
      errors: expect.arrayContaining([
        expect.objectContaining({ location: 'orderType', invalidValue: `${'z'.repeat(200)}…` }),
      ]),
    });
  });

  it('an https endpoint of 1 MB that fails the HEAD check is echoed clipped too', async () => {
    const { sim } = await start({ fetch: async () => new Response(null, { status: 404 }) });
    const endpoint = `https://example.com/${'p'.repeat(1_000_000)}`;
    const res = await call(
      sim,
      'POST',
      '/v2/notifications/subscriptions',
      JSON.stringify({ endpoint, notificationTypes: ['*'] }),
    );
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(JSON.parse(text)).toEqual({
      code: 2,
      message: 'Invalid request: the endpoint failed validation.',
      errors: [
        {
          error: 'endpoint_validation_failed',
          message: 'the endpoint answered HEAD with HTTP 404; it must answer HEAD with 2xx',
          location: 'endpoint',
          invalidValue: `${endpoint.slice(0, 200)}…`,
          constraints: {},
        },
      ],
    });
  });

  it('input echoed in messages, keys and thousands of failing entries stays under 4 KiB', async () => {
    const { sim } = await start();
    const longPath = `/v1/match/${'p'.repeat(15_000)}`;
    const notFound = await call(sim, 'GET', longPath);
    const nf = await notFound.text();
    expect(notFound.status).toBe(404);
    expect(JSON.parse(nf)).toEqual({ code: -1, message: `${`No route for GET ${longPath}`.slice(0, 300)}…` });

    const key = 'k'.repeat(500_000);
    const strict = await sim.handle(
      new Request('http://sim.test/_sim/faults', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ [key]: 1 }),
      }),
    );
    const st = await strict.text();
    expect(strict.status).toBe(400);
    expect(Buffer.byteLength(st)).toBeLessThanOrEqual(4096);

    const many = await call(
      sim,
      'POST',
      '/v1/notifications/subscriptions',
      JSON.stringify({ endpoint: Array(100_000).fill(1) }),
    );
    const mt = await many.text();
    expect(many.status).toBe(400);
    expect(Buffer.byteLength(mt)).toBeLessThanOrEqual(4096);
    expect((JSON.parse(mt) as { code: number }).code).toBe(2);
  });
});

describe('a client hanging up mid-body is not an error (issue 9.3c)', () => {
  it('no 500 logged, and the server keeps answering', async () => {
    const { port, logged } = await start();
    for (const path of ['/v1/match/orders', '/v1/notifications/subscriptions', '/_sim/faults']) {
      const conn = await RawConnection.open(port);
      conn.write(rawRequest('POST', path, { ...AUTH, 'content-length': '1000' }, '{"orderType":'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      conn.destroy();
      await conn.closed;
    }
    const check = await RawConnection.open(port);
    check.write(rawRequest('GET', '/_sim/state'));
    expect((await answer(check)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logged).toEqual([]);
    check.destroy();
  });

  it('in process, a body stream that fails is 400 code 2, not a 500', async () => {
    const { sim, logged } = await start();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"orderType":'));
        controller.error(new Error('client went away'));
      },
    });
    const res = await sim.handle(
      new Request('http://sim.test/v1/match/orders', {
        method: 'POST',
        headers: AUTH,
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: {
        code: 2,
        message: 'Request body could not be read',
        errors: [
          { error: 'unreadable_body', message: 'the body stream failed before its end', location: 'body' },
        ],
      },
    });
    expect(logged).toEqual([]);
  });
});

describe('malformed framing gets the JSON error body (issue 9.3d)', () => {
  async function rawAnswer(port: number, bytes: string | Buffer): Promise<RawResponse> {
    const conn = await RawConnection.open(port);
    conn.write(bytes);
    const r = await answer(conn);
    await conn.closed;
    return r;
  }

  it.each([
    [
      'bad Content-Length',
      'POST /v1/match/orders HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'HPE_INVALID_CONTENT_LENGTH',
      'Invalid character in Content-Length',
    ],
    [
      'broken chunking',
      'POST /v1/match/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
      'HPE_INVALID_CHUNK_SIZE',
      'Invalid character in chunk size',
    ],
    [
      'Content-Length with chunked',
      'POST /v1/match/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'HPE_INVALID_TRANSFER_ENCODING',
      "Transfer-Encoding can't be present with Content-Length",
    ],
    [
      'bad request line',
      'GET /\x01 HTTP/1.1\r\nHost: x\r\n\r\n',
      'HPE_INVALID_URL',
      'Invalid char in url path',
    ],
  ])('%s: 400 code 2 naming the parser error, connection closed', async (_name, bytes, error, reason) => {
    const { port } = await start();
    const r = await rawAnswer(port, bytes);
    expect({ status: r.status, connection: r.headers.connection, body: json(r) }).toEqual({
      status: 400,
      connection: 'close',
      body: {
        code: 2,
        message: `Malformed HTTP request: ${reason}`,
        errors: [{ error, message: reason, location: 'request' }],
      },
    });
    expect(r.headers['x-request-id']).toMatch(/^req_/);
  });

  it('a 64 KB header: 431 code -1 with a JSON body', async () => {
    const { port } = await start();
    const r = await rawAnswer(
      port,
      rawRequest('GET', '/v1/match/account', { ...AUTH, 'x-big': 'h'.repeat(65_536) }),
    );
    expect({ status: r.status, connection: r.headers.connection, body: json(r) }).toEqual({
      status: 431,
      connection: 'close',
      body: { code: -1, message: 'Request header fields too large (over 16384 bytes)' },
    });
  });

  it('HTTP/1.1 without Host: 400 code 2 naming host; CONNECT and TRACE: 405; an unknown Expect: 417', async () => {
    const { port } = await start();
    const conn = await RawConnection.open(port);
    conn.write('GET /_sim/state HTTP/1.1\r\n\r\n');
    const noHost = await answer(conn);
    expect({ status: noHost.status, body: json(noHost) }).toEqual({
      status: 400,
      body: {
        code: 2,
        message: 'Invalid request: malformed request line or Host header',
        errors: [{ error: 'missing_host', message: 'HTTP/1.1 requires a Host header', location: 'host' }],
      },
    });
    conn.destroy();

    const connect = await rawAnswer(
      port,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    expect({ status: connect.status, body: json(connect) }).toEqual({
      status: 405,
      body: { code: -1, message: 'CONNECT is not allowed on this server' },
    });

    // TRACE cannot become a fetch Request at all; it used to be logged as a failure and dropped.
    const traceConn = await RawConnection.open(port);
    traceConn.write(rawRequest('TRACE', '/v1/match/orders', AUTH, '{}'));
    const trace = await answer(traceConn);
    expect({ status: trace.status, body: json(trace) }).toEqual({
      status: 405,
      body: { code: -1, message: 'TRACE is not allowed on this server' },
    });
    traceConn.write(rawRequest('GET', '/_sim/state'));
    expect((await answer(traceConn)).status).toBe(200);
    traceConn.destroy();

    const expectConn = await RawConnection.open(port);
    expectConn.write(rawRequest('POST', '/_sim/auctions/settle', { expect: 'teapot' }, '{}'));
    const expectation = await answer(expectConn);
    expect({ status: expectation.status, body: json(expectation) }).toEqual({
      status: 417,
      body: { code: -1, message: 'Expectation Failed: only Expect: 100-continue is supported' },
    });
    expectConn.write(rawRequest('GET', '/_sim/state'));
    expect((await answer(expectConn)).status).toBe(200);
    expectConn.destroy();
  });
});
