import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { track, useCliCleanup, waitFor } from './cli-process.js';

useCliCleanup();

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
    track(proc);
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
    track(proc);
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
    track(proc);
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
