import { describe, expect, it } from 'vitest';
import { RawConnection, type RawResponse, rawRequest } from '../../bench/raw-http.js';
import { answer, AUTH, json, start, useStartedCleanup } from './robustness-server.js';

useStartedCleanup();

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
      // A Host the simulator answers to: a foreign one is refused (403) before the body is read.
      'POST /v1/match/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
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

  it('HTTP/1.1 without Host: 400 code 2 naming host; CONNECT and TRACE: 405 (TRACE with Allow); an unknown Expect: 417', async () => {
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
    // The route comes before the missing Host: a path no route has is still its 404.
    const unrouted = await RawConnection.open(port);
    unrouted.write('GET /nowhere HTTP/1.1\r\n\r\n');
    const nowhere = await answer(unrouted);
    expect({ status: nowhere.status, body: json(nowhere) }).toEqual({
      status: 404,
      body: { code: -1, message: 'No route for GET /nowhere' },
    });
    unrouted.destroy();

    const connect = await rawAnswer(
      port,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    expect({ status: connect.status, body: json(connect) }).toEqual({
      status: 405,
      body: { code: -1, message: 'CONNECT is not allowed on this server' },
    });

    // TRACE cannot become a fetch Request at all; it used to be logged as a failure and dropped.
    // Issue 33: it is the path's 405 with the path's Allow, as any method the path does not serve.
    const traceConn = await RawConnection.open(port);
    traceConn.write(rawRequest('TRACE', '/v1/match/orders', AUTH, '{}'));
    const trace = await answer(traceConn);
    expect({ status: trace.status, allow: trace.headers.allow, body: json(trace) }).toEqual({
      status: 405,
      allow: 'POST, GET, HEAD',
      body: { code: -1, message: 'TRACE is not allowed on /v1/match/orders' },
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
