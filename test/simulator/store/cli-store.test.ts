import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { BASE, cli, request, useCliCleanup } from '../cli-process.js';

// `match-venue-sim --store` across processes (store/store-lock.ts): a second CLI on a file in use
// exits 2 with one line before it listens or touches the file; a killed one leaves no lock.
useCliCleanup();
const dir = mkdtempSync(join(tmpdir(), 'match-venue-cli-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NOISE = 'TEST_API_KEY:noise-0001:sim';
const FLAGS = [
  '--clock',
  'manual',
  '--start-time',
  '2026-01-01T00:00:00Z',
  '--market',
  'busy',
  '--no-ui',
  '-q',
];

/** A CLI on `file` that has printed its base URL. */
async function running(file: string) {
  const sim = cli(['--store', file, '--port', '0', ...FLAGS]);
  const base = (await sim.waitFor(BASE))[1] as string;
  return { ...sim, base };
}

/** How a CLI ended: its exit code and stderr, or 'listening' (then it is stopped). */
async function outcome(
  sim: ReturnType<typeof cli>,
): Promise<{ code: number | null; err: string } | 'listening'> {
  const listening = sim.waitFor(BASE).then(
    () => true,
    () => false,
  );
  const result = await Promise.race([
    sim.exited.then(([code]) => ({ code })),
    listening.then(() => 'listening' as const),
  ]);
  if (result === 'listening') {
    await sim.stop();
    return result;
  }
  return { code: result.code, err: sim.out.err };
}

describe('match-venue-sim --store: one simulator per file', () => {
  it('a second CLI on a file in use exits 2 before listening, and the first still answers its evicted orders', async () => {
    const file = join(dir, 'shared.db');
    const first = await running(file);
    await request(first.base, 'POST', '/_sim/clock/advance', { body: { ms: 10_000 } });
    const listed = await request(first.base, 'GET', '/v1/match/orders?pageSize=100', { key: NOISE });
    const ids = (listed.body.data as { orders: { orderId: string }[] }).orders.map((o) => o.orderId);
    expect(ids.length).toBeGreaterThan(0);
    // Past the 60 s window: those orders leave memory for the file (no checkpoint yet: 30 minutes).
    await request(first.base, 'POST', '/_sim/clock/advance', { body: { ms: 120_000 } });
    const getAll = async () => {
      const statuses = [];
      for (const id of ids)
        statuses.push((await request(first.base, 'GET', `/v1/match/orders/${id}`, { key: NOISE })).status);
      return statuses;
    };
    expect(await getAll()).toEqual(ids.map(() => 200));
    const refusal = `match-venue-sim: store ${file} is in use by another simulator (pid ${first.proc.pid}); stop it or use another file\n`;
    // On the first one's port (its listen would fail with EADDRINUSE), then on a port of its own.
    const port = new URL(first.base).port;
    for (const at of [port, '0']) {
      const second = cli(['--store', file, '--port', at, ...FLAGS]);
      expect(await outcome(second)).toEqual({ code: 2, err: refusal });
    }
    expect(await getAll()).toEqual(ids.map(() => 200));
    expect(await first.stop()).toBe(0);
  });

  it('a CLI killed with SIGKILL leaves no lock: the next opener takes the file, and holds it', async () => {
    const file = join(dir, 'killed.db');
    const killed = await running(file);
    await request(killed.base, 'POST', '/_sim/clock/advance', { body: { ms: 130_000 } });
    killed.proc.kill('SIGKILL');
    const [, signal] = await killed.exited;
    expect(signal).toBe('SIGKILL');
    // What a killed process leaves: its WAL and shared-memory index beside the file.
    expect(existsSync(`${file}-wal`) && existsSync(`${file}-shm`)).toBe(true);
    const sim = createSimulator({ store: file });
    // It holds the lock now: a third opener is refused, naming this process.
    expect(() => createSimulator({ store: file })).toThrow(
      `store ${file} is in use by another simulator (pid ${process.pid}, this process); stop it or use another file`,
    );
    await sim.close();
  });
});
