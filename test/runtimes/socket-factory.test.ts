// The stream's socket: `ws` where it can be loaded (Node), the runtime's global WebSocket where it
// cannot (a bundle, an edge worker; test/runtimes/edge.test.ts streams that way end to end). Here
// the runtime path runs under Node with undici's WHATWG WebSocket standing in for the global one.

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { WebSocket as UndiciWebSocket } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocketServer, WebSocket as Ws } from 'ws';

const PROTOCOL = 'service-match.v1';
const TICKET = 'ticket.eyJhbGciOiJFUzI1NiJ9.SECRET-TICKET.sig';

let server: WebSocketServer;
let url: string;
const offered: string[][] = [];

beforeAll(async () => {
  server = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    handleProtocols: (protocols) => {
      offered.push([...protocols]);
      return protocols.has(PROTOCOL) ? PROTOCOL : false;
    },
  });
  server.on('connection', (socket) => socket.send('{"type":"hello"}'));
  await new Promise((done) => server.once('listening', done));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v1/match/ws`;
});

afterAll(() => new Promise((done) => server.close(done)));

afterEach(() => {
  vi.doUnmock('../../src/core/runtime-import.js');
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** As Node reports a package that is not installed. */
const notInstalled = () =>
  Object.assign(
    new Error("Cannot find package 'ws' imported from /app/node_modules/match-venue/dist/index.js"),
    {
      code: 'ERR_MODULE_NOT_FOUND',
    },
  );

/**
 * A fresh socket-factory module: `ws` is looked up once per module instance. Without ws, loading it
 * fails with `wsError` (default: as where the package is not installed).
 */
async function factory(options: { ws: boolean; global: boolean; wsError?: () => Error }) {
  vi.resetModules();
  if (!options.ws) {
    // The loader itself rejects, as Node's does: a module mock's failing factory would reach the
    // caller wrapped in the test runner's own error.
    vi.doMock('../../src/core/runtime-import.js', async (original) => {
      const actual = await original<typeof import('../../src/core/runtime-import.js')>();
      const runtimeImport = (specifier: string) =>
        specifier === 'ws'
          ? Promise.reject((options.wsError ?? notInstalled)())
          : actual.runtimeImport(specifier);
      return { ...actual, runtimeImport };
    });
  }
  vi.stubGlobal('WebSocket', options.global ? UndiciWebSocket : undefined);
  return import('../../src/stream/socket-factory.js');
}

/** Opens a socket and collects what it reports until it has opened and read the hello. */
async function greet(socket: Awaited<ReturnType<Awaited<ReturnType<typeof factory>>['openSocket']>>) {
  const frames: string[] = [];
  await new Promise<void>((done, fail) => {
    socket.on('message', (data) => {
      frames.push(data.toString());
      done();
    });
    socket.on('error', fail);
  });
  return frames;
}

describe('openSocket', () => {
  it('uses ws where it can be loaded, even beside a global WebSocket', async () => {
    const { openSocket, SOCKET_OPEN } = await factory({ ws: true, global: true });
    const socket = await openSocket(url, [PROTOCOL, TICKET], { handshakeTimeoutMs: 2000 });
    expect(socket).toBeInstanceOf(Ws);
    expect(await greet(socket)).toEqual(['{"type":"hello"}']);
    expect(socket.readyState).toBe(SOCKET_OPEN);
    expect(socket.protocol).toBe(PROTOCOL);
    expect(offered.at(-1)).toEqual([PROTOCOL, TICKET]);
    socket.terminate();
  });

  it("uses the runtime's WebSocket where ws is absent: protocols, text frames, close", async () => {
    const { openSocket, SOCKET_OPEN, SOCKET_CLOSED } = await factory({ ws: false, global: true });
    const socket = await openSocket(url, [PROTOCOL, TICKET], { handshakeTimeoutMs: 2000 });
    expect(socket).not.toBeInstanceOf(Ws);
    const opened = vi.fn();
    socket.on('open', opened);
    expect(await greet(socket)).toEqual(['{"type":"hello"}']);
    expect(opened).toHaveBeenCalledTimes(1);
    expect(socket.readyState).toBe(SOCKET_OPEN);
    expect(socket.protocol).toBe(PROTOCOL);
    expect(offered.at(-1)).toEqual([PROTOCOL, TICKET]);
    const closed = new Promise<number>((done) => socket.on('close', done));
    socket.send('{"op":"ping","id":1}');
    socket.terminate();
    expect(await closed).toBeGreaterThanOrEqual(1000);
    expect(socket.readyState).toBe(SOCKET_CLOSED);
  });

  it("gives up a handshake the server never answers, on the runtime's WebSocket too", async () => {
    const held: Socket[] = [];
    const silent: Server = createServer((socket) => held.push(socket));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const { openSocket } = await factory({ ws: false, global: true });
      const started = Date.now();
      const socket = await openSocket(
        `ws://127.0.0.1:${(silent.address() as AddressInfo).port}/`,
        [PROTOCOL],
        {
          handshakeTimeoutMs: 200,
        },
      );
      const code = await new Promise<number>((done) => socket.on('close', done));
      expect(code).toBe(1006);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((done) => silent.close(done));
    }
  });

  it.each([
    ['ws', { ws: true, global: false }],
    ["the runtime's WebSocket", { ws: false, global: true }],
  ])(
    'refuses a subprotocol that is no HTTP token (%s) without quoting the ticket',
    async (_name, options) => {
      const { openSocket } = await factory(options);
      const error = await openSocket(url, ['not a token', TICKET], { handshakeTimeoutMs: 2000 }).catch(
        (e) => e,
      );
      expect(error).toMatchObject({ name: 'ConfigurationError', kind: 'MV_INVALID_CONFIG' });
      expect(error.message).toContain('subprotocol');
      expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain('SECRET');
      expect(error.cause).toBeUndefined();
    },
  );

  it('says what to install where neither ws nor a global WebSocket exists', async () => {
    const { openSocket } = await factory({ ws: false, global: false });
    await expect(openSocket(url, [PROTOCOL, TICKET], { handshakeTimeoutMs: 2000 })).rejects.toMatchObject({
      kind: 'MV_INVALID_CONFIG',
      message: expect.stringContaining('install the ws package'),
    });
  });

  it('names what stopped an installed ws from loading instead of asking to install it', async () => {
    // What Jest's VM answers import() with when Node runs without --experimental-vm-modules.
    const wsError = () =>
      Object.assign(
        new TypeError('A dynamic import callback was invoked without --experimental-vm-modules'),
        {
          code: 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG',
        },
      );
    const { openSocket } = await factory({ ws: false, global: false, wsError });
    const error = await openSocket(url, [PROTOCOL, TICKET], { handshakeTimeoutMs: 2000 }).catch((e) => e);
    expect(error).toMatchObject({ kind: 'MV_INVALID_CONFIG' });
    expect(error.message).toContain(
      'the ws package could not be loaded (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG:',
    );
    expect(error.message).toContain('--experimental-vm-modules');
    expect(error.message).not.toContain('install the ws package');
  });
});
