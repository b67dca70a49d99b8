/**
 * Issue 33 through the CLI process: bound to 0.0.0.0 the simulator refuses a webhook endpoint on
 * the host's loopback, and `--allow-private-webhooks` takes it as before. Requests go to 127.0.0.1
 * only; the "admin service" is a local server that must hear nothing without the flag.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, useCliCleanup } from './cli-process.js';

useCliCleanup();

const KEY = 'TEST_API_KEY:burner:sim';
let closeAdmin: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeAdmin?.();
  closeAdmin = undefined;
});

/** A local service recording what it receives; `posts(n)` resolves once it has had n POSTs. */
async function startAdmin() {
  const received: string[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    const posts = received.filter((r) => r.startsWith('POST ')).length;
    for (const w of waiters.filter((w) => posts >= w.n)) w.resolve();
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAdmin = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin`,
    received,
    posts: (n: number) => new Promise<void>((resolve) => waiters.push({ n, resolve })),
  };
}

async function subscribe(sim: ReturnType<typeof cli>, endpoint: string) {
  const [, port] = await sim.waitFor(/base URL:\s+http:\/\/[^\s]+:(\d+)/);
  const response = await fetch(`http://127.0.0.1:${port}/v1/notifications/subscriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ endpoint }),
  });
  return { status: response.status, body: (await response.json()) as { code: number; message: string } };
}

describe('match-venue-sim --host 0.0.0.0 and webhooks', () => {
  it('refuses a loopback endpoint (400 code 2 naming --allow-private-webhooks); the service hears nothing', async () => {
    const admin = await startAdmin();
    const sim = cli(['--clock', 'manual', '--host', '0.0.0.0', '--port', '0']);
    const answer = await subscribe(sim, admin.url);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(2);
    expect(answer.body.message).toContain('--allow-private-webhooks');
    sim.proc.kill('SIGINT');
    expect((await sim.exited)[0]).toBe(0);
    expect(admin.received).toEqual([]);
  });

  it('with --allow-private-webhooks the loopback endpoint is subscribed and gets its confirmations', async () => {
    const admin = await startAdmin();
    const sim = cli(['--clock', 'manual', '--host', '0.0.0.0', '--port', '0', '--allow-private-webhooks']);
    const confirmed = admin.posts(2);
    expect((await subscribe(sim, admin.url)).status).toBe(201);
    await confirmed;
    expect(admin.received).toEqual(['POST /admin', 'POST /admin']);
    sim.proc.kill('SIGINT');
    expect((await sim.exited)[0]).toBe(0);
  });
});
