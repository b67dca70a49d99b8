/**
 * Issue 9 point 3: the simulator stays answerable and answers every fault with a bounded JSON
 * `{code, message}` body, whatever arrives on the wire. Framing cases use raw loopback sockets.
 */
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { RawConnection, rawRequest } from '../../bench/raw-http.js';
import { answer, AUTH, json, start, useStartedCleanup } from './robustness-server.js';

useStartedCleanup();

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
