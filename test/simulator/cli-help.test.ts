import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

// A bot in another language has `match-venue-sim --help` and nothing of this package: this test
// is that bot. Everything it sends (base URL, keys, ids, paths, bodies, the WebSocket handshake) is
// read from the help text; only plain fetch and the ws package talk to the simulator.
const CLI = ['src/simulator/cli.ts'];
let child: ChildProcess | undefined;

afterEach(async () => {
  const proc = child;
  child = undefined;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, 'exit');
  // SIGTERM: tsx passes it on to the node process running the CLI (SIGKILL would orphan it).
  proc.kill('SIGTERM');
  await exited;
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The first capture of `pattern` in `text`, or a failure naming what the help lacks. */
function pick(text: string, pattern: RegExp, what: string): string[] {
  const m = pattern.exec(text);
  if (!m) throw new Error(`--help does not give ${what} (${pattern})`);
  return m.slice(1).map(String);
}

function readHelp(port: number) {
  const help = execFileSync(process.execPath, ['--import', 'tsx', ...CLI, '--help', '--port', String(port)], {
    encoding: 'utf8',
  });
  const entity = (name: string) => {
    const [key, wallet, fiat] = pick(
      help,
      new RegExp(`^\\s+${name}\\s+key (\\S+)\\s+wallet (\\S+)\\s+fiat (\\S+)$`, 'm'),
      `${name}'s key`,
    );
    return { key: String(key), wallet, fiat };
  };
  const path = (operation: string) =>
    String(pick(help, new RegExp(`^\\s+\\w+\\s+(\\S+)\\s+${operation}$`, 'm'), operation)[0]);
  const [ws, protocol, ticketPrefix] = pick(
    help,
    /connect to (ws:\/\/\S+) offering two subprotocols: (\S+) and (\S+)<ticket>/,
    'the WebSocket handshake',
  );
  return {
    help,
    base: String(pick(help, /^REST at (http:\/\/\S+) /m, 'the base URL')[0]),
    burner: entity('burner'),
    minter: entity('minter'),
    placePath: path('placeOrder'),
    orderPath: path('getOrder'),
    ticketPath: path('createWsTicket'),
    clearPath: String(pick(help, /^\s+POST\s+(\/_sim\/\S+)\s+lock -> clear/m, 'the clear control')[0]),
    burnBody: JSON.parse(String(pick(help, / -d '(\{.*\})'$/m, 'a BURN body')[0])) as Record<string, unknown>,
    mintBody: JSON.parse(String(pick(help, /^\s+MINT body: (\{.*\})$/m, 'a MINT body')[0])) as Record<
      string,
      unknown
    >,
    subscribe: JSON.parse(String(pick(help, /then send (\{"op":"subscribe".*?\})/, 'a subscribe frame')[0])),
    ws: String(ws),
    protocol: String(protocol),
    ticketPrefix: String(ticketPrefix),
    openapi: String(pick(help, /^OpenAPI .*: (\S+)$/m, 'the OpenAPI file')[0]),
  };
}

describe('match-venue-sim --help is enough for a bot in another language', { timeout: 60_000 }, () => {
  it('place -> clear -> fill over REST and a market subscription over the WebSocket', async () => {
    const port = await freePort();
    const h = readHelp(port);
    expect(h.base).toBe(`http://127.0.0.1:${port}`);
    expect(h.openapi).toMatch(/openapi\/match-venue\.yaml$/);
    expect(readFileSync(h.openapi, 'utf8')).toMatch(/^openapi: 3\.1/);

    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', ...CLI, '--port', String(port), '--clock', 'manual', '--quiet'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    child = proc;
    let banner = '';
    proc.stdout?.on('data', (b: Buffer) => {
      banner += b.toString();
    });
    while (!banner.includes(h.base)) {
      if (proc.exitCode !== null) throw new Error(`the simulator exited: ${banner}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // The banner gives the same keys and handshake as --help.
    expect(banner).toContain(`key ${h.burner.key}`);
    expect(banner).toContain(`${h.ticketPrefix}<ticket>`);

    const call = async (method: string, path: string, key?: string, body?: unknown) => {
      const res = await fetch(`${h.base}${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
    };

    // The handshake as described: a ticket, then both subprotocols; hello first, then subscribe.
    const ticket = await call('POST', h.ticketPath, h.burner.key);
    expect(ticket.status).toBe(200);
    const socket = new WebSocket(`${h.ws}`, [
      h.protocol,
      `${h.ticketPrefix}${String(ticket.body.data.ticket)}`,
    ]);
    const frames: Record<string, unknown>[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Record<string, unknown>));
    await once(socket, 'open');
    expect(socket.protocol).toBe(h.protocol);
    const frame = async (match: (f: Record<string, unknown>) => boolean) => {
      for (;;) {
        const found = frames.find(match);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await frame((f) => f.type === 'hello');
    socket.send(JSON.stringify(h.subscribe));
    await frame((f) => f.type === 'subscribed');

    const burnId = randomUUID();
    const placed = await call('POST', h.placePath, h.burner.key, { ...h.burnBody, idempotencyKey: burnId });
    expect(placed).toMatchObject({ status: 202, body: { data: { orderId: burnId, status: 'pending' } } });
    const mint = await call('POST', h.placePath, h.minter.key, {
      ...h.mintBody,
      idempotencyKey: randomUUID(),
    });
    expect(mint.status).toBe(202);
    expect((await call('POST', h.clearPath)).status).toBe(200);

    const order = await call('GET', h.orderPath.replace('{id}', burnId), h.burner.key);
    expect(order).toMatchObject({
      status: 200,
      body: { data: { orderId: burnId, status: 'filled', fill: { filledAmount: { amount: '1000.00' } } } },
    });
    const cleared = await frame((f) => f.event === 'auction.cleared');
    expect(cleared).toMatchObject({ type: 'event', channel: 'market', data: { matchedVolume: 100000 } });
    socket.close();
    await once(socket, 'close');

    const exited = once(proc, 'exit');
    proc.kill('SIGINT');
    expect((await exited)[0]).toBe(0);
  });
});
