import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

let child: ChildProcess | undefined;
const started = new Set<ChildProcess>();
/**
 * Ends a CLI a test left running (it failed midway). SIGTERM first: tsx passes it on to the node
 * process running the CLI, where SIGKILL would kill tsx alone and leave that process behind.
 */
async function end(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, 'exit');
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

afterEach(async () => {
  await Promise.all([...started, ...(child ? [child] : [])].map(end));
  child = undefined;
  started.clear();
});

/** The CLI under tsx with `args`, its output collected; killed after the test if still running. */
function cli(args: string[], env: Record<string, string | undefined> = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  // The test runner's own colour settings must not decide what the CLI does.
  for (const name of ['FORCE_COLOR', 'NO_COLOR', 'NODE_DISABLE_COLORS']) delete childEnv[name];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/simulator/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv,
  });
  started.add(proc);
  const out = { text: '', err: '' };
  proc.stdout?.on('data', (b: Buffer) => {
    out.text += b.toString();
  });
  proc.stderr?.on('data', (b: Buffer) => {
    out.err += b.toString();
  });
  const exited = once(proc, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    proc,
    out,
    exited,
    waitFor: (pattern: RegExp) => waitFor(out, proc, pattern),
    /** SIGINT, and the exit code. */
    async stop(): Promise<number | null> {
      proc.kill('SIGINT');
      return (await exited)[0];
    },
  };
}

/** The log lines (stamped `[sim …]`), without the startup banner. */
function logLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.startsWith('[sim '))
    .join('\n');
}

async function request(
  base: string,
  method: string,
  path: string,
  init: { key?: string; body?: unknown } = {},
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { code?: number; data?: Record<string, unknown> },
  };
}

const BASE = /base URL:\s+(http:\/\/127\.0\.0\.1:\d+)/;

function waitFor(
  output: { text: string },
  proc: ChildProcess,
  pattern: RegExp,
  timeoutMs = 20_000,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.stdout?.off('data', check);
      reject(new Error(`no ${pattern} within ${timeoutMs} ms in: ${output.text}`));
    }, timeoutMs);
    const check = () => {
      const m = output.text.match(pattern);
      if (m) {
        clearTimeout(timer);
        proc.stdout?.off('data', check);
        resolve(m);
      }
    };
    proc.stdout?.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cli exited (${code}) before ${pattern}: ${output.text}`));
    });
    check();
  });
}

describe('match-venue-sim CLI', () => {
  it('serves a venue that plain HTTP drives through full cycles, then stops cleanly on SIGINT', async () => {
    // node with tsx as a loader, one process: npm exec neither forwards a direct SIGINT nor keeps
    // the child's exit code, and the tsx binary relays a signal to its child only if the child
    // acknowledges it within 30 ms, else SIGKILLs it and exits 130 (a busy machine's flake).
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/simulator/cli.ts', '--port', '0', '--clock', 'manual'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = proc;
    const out = { text: '' };
    proc.stdout?.on('data', (b: Buffer) => {
      out.text += b.toString();
    });
    proc.stderr?.on('data', (b: Buffer) => {
      out.text += b.toString();
    });
    const [, base] = await waitFor(out, proc, /base URL:\s+(http:\/\/127\.0\.0\.1:\d+)/);
    // The seeded keys are the simulator's published test keys: the banner gives them in full.
    for (const s of Object.values(SEEDED)) expect(out.text).toContain(`key ${s.apiKey}`);
    expect(out.text).toContain(SEEDED.burner.walletId);
    expect(out.text).toMatch(/WebSocket URL: ws:\/\/127\.0\.0\.1:\d+\/v1\/match\/ws/);

    const call = async (method: string, path: string, key: string | null, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
    };
    const burnId = '11111111-2222-4333-8444-555555555501';
    const place = await call('POST', '/v1/match/orders', SEEDED.burner.apiKey, {
      idempotencyKey: burnId,
      orderType: 'BURN',
      amount: { amount: '1000.00', currency: 'USD' },
      feeBps: '5',
      postFillAction: 'roll',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    expect(place).toEqual({
      status: 202,
      body: { data: { auctionId: 1, orderId: burnId, status: 'pending' } },
    });
    const mint = (id: string, amount: string) =>
      call('POST', '/v1/match/orders', SEEDED.minter.apiKey, {
        idempotencyKey: id,
        orderType: 'MINT',
        amount: { amount, currency: 'USD' },
        feeBps: '3',
        postFillAction: 'cancel',
      });
    expect((await mint('11111111-2222-4333-8444-555555555502', '400.00')).status).toBe(202);
    const cleared = await call('POST', '/_sim/auctions/clear', null, {});
    expect(cleared.body.data).toMatchObject({
      auctionId: 1,
      clearingFeeBps: '4.00',
      matchedVolume: { amount: '400.00' },
    });
    const first = await call('GET', `/v1/match/orders/${burnId}`, SEEDED.burner.apiKey);
    expect(first.body.data).toMatchObject({
      status: 'partial_fill',
      fill: { filledAmount: { amount: '400.00' } },
    });
    const childId = (first.body.data.lineage as { childOrderId: string }).childOrderId;
    expect((await mint('11111111-2222-4333-8444-555555555503', '600.00')).status).toBe(202);
    await call('POST', '/_sim/auctions/clear', null, {});
    const second = await call('GET', `/v1/match/orders/${childId}`, SEEDED.burner.apiKey);
    expect(second.body.data).toMatchObject({
      auctionId: 2,
      status: 'filled',
      lineage: { parentOrderId: burnId, childOrderId: null },
    });
    const w = await call('POST', '/v1/match/withdrawals', SEEDED.minter.apiKey, {
      idempotencyKey: '11111111-2222-4333-8444-555555555504',
      amount: { amount: '1000.00', currency: 'USD' },
      fiatAccountId: SEEDED.minter.fiatAccountId,
    });
    expect(w).toMatchObject({ status: 201, body: { data: { status: 'pending' } } });
    await call('POST', '/_sim/clock/advance', null, { ms: 5_000 });
    await waitFor(out, proc, /auction 2 cleared: fee 4\.00 bps, matched 600\.00 USD, 2 fills/);

    const exited = once(proc, 'exit');
    proc.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(0);
  });

  it('honours --host, --clock real, --cycle-ms, --lock-ms, --settle-ms and --seed, logging each phase', async () => {
    const proc = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/simulator/cli.ts',
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--clock',
        'real',
        '--cycle-ms',
        '400',
        '--lock-ms',
        '150',
        '--settle-ms',
        '50',
        '--seed',
        '7',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    const out = { text: '' };
    proc.stdout?.on('data', (b: Buffer) => {
      out.text += b.toString();
    });
    await waitFor(out, proc, /base URL:\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(out.text).toMatch(/clock:\s+real/);
    // The log names every phase; the announced lock and clear times are --lock-ms apart.
    const [, locks, clears] = await waitFor(out, proc, /auction \d+ open \(locks (\S+), clears (\S+)\)/);
    expect(Date.parse(String(clears)) - Date.parse(String(locks))).toBe(150);
    await waitFor(out, proc, /auction \d+ locked/);
    await waitFor(out, proc, /auction \d+ cleared: fee 5\.00 bps, matched 0\.00 USD/);
    await waitFor(out, proc, /auction \d+ settled/);
    const exited = once(proc, 'exit');
    proc.kill('SIGINT');
    expect((await exited)[0]).toBe(0);
  });

  it('rejects inconsistent flags with exit code 2, naming the flags, without the whole usage', async () => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/simulator/cli.ts', '--cycle-ms', '1000', '--lock-ms', '2000'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = proc;
    let err = '';
    proc.stderr?.on('data', (b: Buffer) => {
      err += b.toString();
    });
    const [code] = await once(proc, 'exit');
    expect(code).toBe(2);
    expect(err).toBe(
      'match-venue-sim: --lock-ms must be shorter than --cycle-ms\nRun match-venue-sim --help for every flag.\n',
    );
  });
});

describe('match-venue-sim request log', { timeout: 60_000 }, () => {
  it('logs a 400 as one line: method, path without its query, status, error code, ms; never a key or a query secret', async () => {
    const sim = cli(['--port', '0', '--clock', 'manual']);
    const [, base] = await sim.waitFor(BASE);
    const bad = await request(String(base), 'POST', '/v1/match/orders?token=hunter2', {
      key: SEEDED.burner.apiKey,
      body: { orderType: 'BURN' },
    });
    expect(bad).toMatchObject({ status: 400, body: { code: 2 } });
    const [line] = await sim.waitFor(/^.*POST \/v1\/match\/orders .*$/m);
    expect(line).toMatch(
      /^\[sim \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] POST \/v1\/match\/orders 400 code 2 \d+(\.\d)? ms$/,
    );
    const ok = await request(String(base), 'GET', '/v1/match/account', { key: SEEDED.burner.apiKey });
    expect(ok.status).toBe(200);
    await sim.waitFor(/GET \/v1\/match\/account 200 \d+(\.\d)? ms$/m);
    expect(sim.out.text.match(/POST \/v1\/match\/orders/g)).toHaveLength(1);
    expect(sim.out.text).not.toContain('hunter2');
    // The banner gives the seeded keys; no log line repeats the one the request carried.
    expect(logLines(sim.out.text)).not.toContain(SEEDED.burner.apiKey);
    expect(await sim.stop()).toBe(0);
  });

  it('logs WebSocket upgrades, 401 without a valid ticket and 101 with one, never the ticket', async () => {
    const sim = cli(['--port', '0', '--clock', 'manual']);
    await sim.waitFor(BASE);
    const [, wsUrl] = await sim.waitFor(/WebSocket URL: (ws:\S+)/);
    const open = (protocols: string[]) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(String(wsUrl), protocols);
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
        ws.once('unexpected-response', (_req, res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        ws.once('error', () => {});
      });
    expect(await open(['service-match.v1', 'ticket.not-a-ticket'])).toBe(401);
    await sim.waitFor(/WS \/v1\/match\/ws 401 code 401 \d+(\.\d)? ms$/m);
    const base = String(wsUrl)
      .replace(/^ws/, 'http')
      .replace(/\/v1\/match\/ws$/, '');
    const ticket = await request(base, 'POST', '/v1/match/ws/ticket', { key: SEEDED.burner.apiKey });
    const t = String(ticket.body.data?.ticket);
    expect(await open(['service-match.v1', `ticket.${t}`])).toBe(101);
    await sim.waitFor(/WS \/v1\/match\/ws 101 \d+(\.\d)? ms$/m);
    expect(sim.out.text).not.toContain(t);
    expect(sim.out.text).not.toContain('not-a-ticket');
    expect(await sim.stop()).toBe(0);
  });

  it('--quiet logs no request (auction phases still)', async () => {
    const sim = cli(['--port', '0', '--clock', 'manual', '--quiet']);
    const [, base] = await sim.waitFor(BASE);
    expect(
      (await request(String(base), 'GET', '/v1/match/orders?from=bad', { key: SEEDED.burner.apiKey })).status,
    ).toBe(400);
    // Logged after the 400 would have been: its line, had there been one, is already out.
    await request(String(base), 'POST', '/_sim/auctions/clear', { body: {} });
    await sim.waitFor(/auction 1 cleared/);
    expect(sim.out.text).toMatch(/^\[sim \S+\] auction 1 settled$/m);
    expect(sim.out.text).not.toMatch(/^\[sim \S+\] (GET|POST) /m);
    expect(await sim.stop()).toBe(0);
  });

  it('--json prints the startup info and every log line as one JSON object per line, keys by id only', async () => {
    const sim = cli(['--port', '0', '--clock', 'manual', '--json', '--start-time', '2026-01-01T00:00:00Z'], {
      FORCE_COLOR: '1',
    });
    await sim.waitFor(/"type":"startup"/);
    const startup = JSON.parse(sim.out.text.split('\n')[0] ?? '') as Record<string, unknown>;
    const base = String(startup.url);
    expect(startup).toMatchObject({
      type: 'startup',
      simTime: '2026-01-01T00:00:00.000Z',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      wsUrl: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/match\/ws$/),
      clock: 'manual',
      entities: expect.arrayContaining([
        {
          name: 'burner',
          keyId: 'TEST_API_KEY:burner',
          apiKey: SEEDED.burner.apiKey,
          walletId: SEEDED.burner.walletId,
          fiatAccountId: SEEDED.burner.fiatAccountId,
        },
      ]),
    });
    await request(base, 'DELETE', '/v1/match/orders', { key: SEEDED.burner.apiKey });
    await request(base, 'POST', '/_sim/auctions/clear', { body: {} });
    await sim.waitFor(/"event":"auction.settled"/);
    expect(await sim.stop()).toBe(0);
    const lines = sim.out.text.trimEnd().split('\n');
    const objects = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // A request's line is written once it is answered: after the events it caused.
    expect(objects.map((o) => o.type)).toEqual([
      'startup',
      'request',
      'auction',
      'auction',
      'auction',
      'auction',
      'request',
      'shutdown',
    ]);
    expect(objects[1]).toEqual({
      type: 'request',
      simTime: '2026-01-01T00:00:00.000Z',
      kind: 'http',
      method: 'DELETE',
      path: '/v1/match/orders',
      status: 405,
      code: -1,
      ms: expect.any(Number),
    });
    expect(objects.find((o) => o.event === 'auction.cleared')).toMatchObject({
      auctionId: 1,
      matchedVolume: '0.00',
    });
    // No colour in JSON, even when forced; no key anywhere.
    expect(sim.out.text).not.toContain('\u001b[');
    // Keys in full in the startup line only (the published test keys); no other line has one.
    expect(objects[0]?.entities).toContainEqual(expect.objectContaining({ apiKey: SEEDED.burner.apiKey }));
    for (const s of Object.values(SEEDED)) expect(lines.slice(1).join('\n')).not.toContain(s.apiKey);
  });

  it('--start-time sets the clock the venue reports; a bad one exits 2 naming the flag', async () => {
    const sim = cli([
      '--port',
      '0',
      '--clock',
      'manual',
      '--start-time',
      String(Date.parse('2026-05-01T09:30:00Z')),
    ]);
    const [, base] = await sim.waitFor(BASE);
    expect(sim.out.text).toMatch(/clock:\s+manual, now 2026-05-01T09:30:00\.000Z/);
    const id = '11111111-2222-4333-8444-555555555599';
    const placed = await request(String(base), 'POST', '/v1/match/orders', {
      key: SEEDED.burner.apiKey,
      body: {
        idempotencyKey: id,
        orderType: 'BURN',
        amount: { amount: '1000.00', currency: 'USD' },
        feeBps: '3',
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      },
    });
    expect(placed).toMatchObject({ status: 202 });
    const order = await request(String(base), 'GET', `/v1/match/orders/${id}`, { key: SEEDED.burner.apiKey });
    expect(order.body.data?.createdAt).toBe('2026-05-01T09:30:00.000Z');
    expect(await sim.stop()).toBe(0);

    const bad = cli(['--start-time', '2026-05-01 09:30']);
    expect((await bad.exited)[0]).toBe(2);
    expect(bad.out.err).toMatch(
      /^match-venue-sim: --start-time must be an ISO 8601 instant with Z or an offset/,
    );
  });
});

describe('match-venue-sim flags', { timeout: 60_000 }, () => {
  it('--version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const sim = cli(['--version']);
    expect((await sim.exited)[0]).toBe(0);
    expect(sim.out.text).toBe(`${version}\n`);
  });

  it('an unknown flag is named with the nearest valid one, exit 2, without the whole usage; --help prints it', async () => {
    const [typo, far, help] = [cli(['--prot', '4010']), cli(['--banana']), cli(['--help'])];
    expect((await typo.exited)[0]).toBe(2);
    expect(typo.out.err).toBe(
      'match-venue-sim: unknown flag --prot; did you mean --port?\nRun match-venue-sim --help for every flag.\n',
    );
    expect((await far.exited)[0]).toBe(2);
    expect(far.out.err).toMatch(/^match-venue-sim: unknown flag --banana\n/);
    expect((await help.exited)[0]).toBe(0);
    for (const flag of [
      '--host',
      '--port',
      '--clock',
      '--start-time',
      '--quiet',
      '--json',
      '--version',
      '--help',
    ])
      expect(help.out.text).toContain(flag);
  });

  it('no colour when stdout is not a terminal; FORCE_COLOR forces it', async () => {
    const piped = cli(['--port', '0', '--clock', 'manual']);
    const [, base] = await piped.waitFor(BASE);
    await request(String(base), 'GET', '/v1/match/orders?from=bad', { key: SEEDED.burner.apiKey });
    await piped.waitFor(/GET \/v1\/match\/orders 400/);
    expect(await piped.stop()).toBe(0);
    expect(piped.out.text).not.toContain('\u001b[');

    const forced = cli(['--port', '0', '--clock', 'manual'], { FORCE_COLOR: '1' });
    const [, forcedBase] = await forced.waitFor(BASE);
    await request(String(forcedBase), 'GET', '/v1/match/orders?from=bad', { key: SEEDED.burner.apiKey });
    await forced.waitFor(/GET \/v1\/match\/orders \S+400 code 2/);
    expect(forced.out.text).toContain('GET /v1/match/orders \u001b[33m400 code 2\u001b[0m');
    expect(await forced.stop()).toBe(0);
  });
});
