// The default transport loads undici on the first request. An undici that loads but cannot make
// its connection pool (a broken install, a runtime's stand-in) must not fail that request, or every
// later one: nothing was sent, so the request goes through the global fetch as where undici is absent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{"ok":true}}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/match/configuration`;
});
afterAll(() => new Promise((done) => server.close(done)));
afterEach(() => {
  vi.doUnmock('undici');
  vi.resetModules();
});

const request = (u: string) => ({
  method: 'GET',
  url: u,
  headers: {},
  body: undefined,
  signal: undefined,
  timeoutMs: 2000,
});

describe('default transport when undici loads but its Agent cannot be made', () => {
  it('sends through the global fetch, on the first request and the next', async () => {
    vi.resetModules();
    vi.doMock('undici', () => {
      class Agent {
        constructor() {
          throw new TypeError('Agent is not supported here');
        }
      }
      return { default: { Agent }, Agent };
    });
    const { defaultTransport } = await import('../../src/core/default-transport.js');
    const transport = defaultTransport();

    const first = await transport(request(url));
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('{"data":{"ok":true}}');
    const second = await transport(request(url));
    expect(second.status).toBe(200);
    await second.text();
  });
});
