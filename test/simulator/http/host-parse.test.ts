/**
 * Issue 33 (point 6): a Host header that is not a `host[:port]` at all is as foreign as another
 * site's name. It used to be skipped by the Host check (left to the request-target parse), so the
 * dashboard answered 200 and the WebSocket upgrade 101 under it.
 */
import { connect } from 'node:net';
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { RawConnection, rawRequest } from '../../../bench/raw-http.js';

const sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function start() {
  const sim = createSimulator({ logger: { info: () => undefined, error: () => undefined } });
  sims.push(sim);
  const running = await sim.listen({ port: 0, ui: true });
  return { sim, port: Number(new URL(running.url).port) };
}

/** One raw request on its own connection: the Host is exactly what is written. */
async function send(port: number, path: string, headers: Record<string, string>) {
  const conn = await RawConnection.open(port);
  try {
    conn.write(rawRequest('GET', path, headers));
    const got = await conn.next(5_000);
    if (typeof got === 'string') throw new Error(`GET ${path}: ${got}`);
    const text = got.body.toString('utf8');
    return {
      status: got.status,
      body: got.headers['content-type'] === 'application/json' ? JSON.parse(text) : text,
    };
  } finally {
    conn.destroy();
  }
}

/** A WebSocket upgrade with a valid ticket, read raw: the status line and the body of a refusal. */
function upgrade(port: number, host: string, ticket: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (b: Buffer) => {
      text += b.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = Number(text.slice(9, 12));
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      if (status !== 101 && text.length < end + 4 + length) return;
      socket.destroy();
      resolve({ status, body: text.slice(end + 4, end + 4 + length) });
    });
    socket.on('error', reject);
    socket.write(
      rawRequest('GET', '/v1/match/ws', {
        host,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-protocol': `service-match.v1, ticket.${ticket}`,
      }),
    );
  });
}

const UNPARSEABLE = ['evil.com:abc', 'a b', '[::1', 'localhost:99999', 'localhost:0', 'local\thost'];
/** The foreign-Host refusal's message: the Host as sent, and the flag that serves a name. */
const naming = (host: string) =>
  expect.stringMatching(
    new RegExp(`^Host ${JSON.stringify(host).replace(/[[\]\\]/g, '\\$&')} is not one .*--allowed-hosts`),
  );

describe('a Host that is no host[:port] is foreign', () => {
  it.each(UNPARSEABLE)('%j: 403 code -1 on the dashboard, a venue GET and a control GET', async (host) => {
    const { port } = await start();
    const auth = { authorization: `Bearer ${SEEDED.burner.apiKey}` };
    for (const [path, headers] of [
      ['/_sim/ui', {}],
      ['/v1/match/account', auth],
      ['/_sim/state', {}],
    ] as const) {
      const got = await send(port, path, { ...headers, host });
      expect({ path, ...got }).toEqual({ path, status: 403, body: { code: -1, message: naming(host) } });
    }
  });

  it.each(UNPARSEABLE)('%j: the WebSocket upgrade is 403 before its ticket is read', async (host) => {
    const { sim, port } = await start();
    const { ticket } = await sim.tickets.issue(SEEDED.burner.entityId);
    const got = await upgrade(port, host, ticket);
    expect(got.status).toBe(403);
    expect(JSON.parse(got.body)).toEqual({ code: 403, message: naming(host) });
    // The same ticket opens the socket under a Host the simulator answers to.
    expect((await upgrade(port, `localhost:${port}`, ticket)).status).toBe(101);
  });

  it.each(['LOCALHOST.', 'localhost', '127.0.0.1:80', '[::1]:4010', 'localhost:65535'])(
    '%j is still answered (case, a trailing dot, a port, IPv6)',
    async (host) => {
      const { port } = await start();
      expect((await send(port, '/_sim/state', { host })).status).toBe(200);
    },
  );
});
