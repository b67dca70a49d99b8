import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { Driver } from './helpers.js';

const START = '2026-01-01T00:00:00Z';
const MARKET = { preset: 'busy', noise: { count: 20 }, liquidity: { count: 2 } } as const;

async function getLog(sim: Simulator): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await sim.handle(new Request('http://127.0.0.1/_sim/log'));
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** One scenario: our bot's orders, a wire, faults, clock steps and clears, by auction number. */
async function scenario(sim: Simulator, from: number, to: number): Promise<void> {
  const d = new Driver(sim);
  for (let i = from; i < to; i++) {
    const idempotencyKey = `00000000-0000-4000-8000-${(1000 + i).toString(16).padStart(12, '0')}`;
    await d.placed(d.burn('1500.00', { feeBps: '6', postFillAction: 'roll', idempotencyKey }));
    if (i === 1) sim.setFaults({ failSettlement: 0.25 });
    if (i === 2)
      sim.wire({ entityId: SEEDED.minter.entityId, amount: { amount: '700.00', currency: 'USD' } });
    sim.advance(3_000);
    sim.clearAuction({ settle: i % 2 === 0 });
    expect(sim.checkInvariants()).toEqual([]);
  }
}

describe('the event log (GET /_sim/log)', () => {
  it('two runs of one scenario with one seed on the manual clock give byte-identical logs', async () => {
    const run = async (seed: number) => {
      const sim = createSimulator({ startTime: START, market: MARKET, seed, eventLog: true });
      await scenario(sim, 0, 5);
      return getLog(sim);
    };
    const [a, b, other] = [await run(4), await run(4), await run(5)];
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/x-ndjson');
    expect(a.text).toBe(b.text);
    expect(other.text).not.toBe(a.text);
    const lines = a.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    // Control actions come before the events they cause; venue events carry their data.
    const actions = lines.filter((l) => l.type === 'control').map((l) => l.action);
    expect(actions.slice(0, 6)).toEqual([
      'advance',
      'clearAuction',
      'setFaults',
      'advance',
      'clearAuction',
      'wire',
    ]);
    const firstClear = lines.findIndex((l) => l.action === 'clearAuction');
    expect(lines[firstClear + 1]).toMatchObject({ type: 'event', event: 'auction.locked' });
    expect(lines.some((l) => l.event === 'order.accepted' && l.entityId === SEEDED.burner.entityId)).toBe(
      true,
    );
  });

  it('a snapshot restored and run forward gives the same log as running straight through', async () => {
    const straight = createSimulator({ startTime: START, market: MARKET, seed: 4, eventLog: true });
    await scenario(straight, 0, 3);
    const doc = straight.snapshot();
    const mark = (await getLog(straight)).text.trimEnd().split('\n').length;
    await scenario(straight, 3, 6);
    const fork = createSimulator({ eventLog: true });
    fork.restore(doc);
    await scenario(fork, 3, 6);
    const forkLines = (await getLog(fork)).text.trimEnd().split('\n');
    // The fork's log starts a new history with the restore, then follows the straight run line for line.
    expect(JSON.parse(forkLines[0] ?? '')).toMatchObject({ type: 'control', action: 'restore' });
    expect(forkLines.slice(1).join('\n')).toBe(
      (await getLog(straight)).text.trimEnd().split('\n').slice(mark).join('\n'),
    );
    expect(forkLines.length).toBeGreaterThan(100);
  });

  it('keeps a bounded ring: the newest lines, and how many were dropped', async () => {
    const sim = createSimulator({ startTime: START, eventLog: 4 });
    for (let i = 0; i < 3; i++) sim.clearAuction();
    const all = createSimulator({ startTime: START, eventLog: 1000 });
    for (let i = 0; i < 3; i++) all.clearAuction();
    const full = (await getLog(all)).text.trimEnd().split('\n');
    const kept = await getLog(sim);
    expect(kept.text.trimEnd().split('\n')).toEqual(full.slice(-4));
    expect(kept.headers.get('x-sim-log-dropped')).toBe(String(full.length - 4));
  });

  it('is off by default (409 naming the option and the CLI flag), and a bad size is refused', async () => {
    const off = await getLog(createSimulator());
    expect(off.status).toBe(409);
    expect(JSON.parse(off.text).message).toContain('eventLog');
    expect(JSON.parse(off.text).message).toContain('--event-log');
    expect(() => createSimulator({ eventLog: -1 })).toThrow(/eventLog must be a boolean, an integer/);
    expect(() => createSimulator({ eventLog: 1.5 })).toThrow(RangeError);
    expect(() => createSimulator({ eventLog: { bytes: 100 } })).toThrow(
      'eventLog.bytes must be an integer from 4096 to 268435456',
    );
    expect(() => createSimulator({ eventLog: { lines: 0 } })).toThrow(/eventLog.lines must be an integer/);
  });

  it('is bounded in bytes too: 520 large fault settings answer 200, the newest within the bound', async () => {
    const bytes = 64 * 1024;
    const sim = createSimulator({ startTime: START, eventLog: { lines: 10_000, bytes } });
    const d = new Driver(sim);
    // Each setting about 8 KiB (under the per-line bound: kept whole), 520 of them: 4 MiB in all.
    const ids = (i: number) => Array.from({ length: 200 }, (_, j) => `order-${i}-${j}`.padEnd(38, '.'));
    for (let i = 0; i < 520; i++)
      expect((await d.call('POST', '/_sim/faults', null, { failSettlement: ids(i) })).status).toBe(200);
    const log = await getLog(sim);
    expect(log.status).toBe(200);
    expect(new TextEncoder().encode(log.text).length).toBeLessThanOrEqual(bytes);
    const lines = log.text.trimEnd().split('\n');
    const dropped = Number(log.headers.get('x-sim-log-dropped'));
    expect(dropped).toBeGreaterThan(0);
    expect(lines.length + dropped).toBe(520);
    expect(JSON.parse(lines.at(-1) ?? '')).toMatchObject({
      action: 'setFaults',
      args: { failSettlement: ids(519) },
    });
  });

  it('summarises a line past 64 KiB (a 1 MiB fault setting), naming what it left out', async () => {
    const sim = createSimulator({ startTime: START, eventLog: true });
    const huge = Array.from(
      { length: 26_000 },
      (_, j) => `00000000-0000-4000-8000-${String(j).padStart(12, '0')}`,
    );
    const body = JSON.stringify({ failSettlement: huge, errorRate: 0.5 });
    expect(body.length).toBeGreaterThan(1_000_000);
    const res = await sim.handle(
      new Request('http://127.0.0.1/_sim/faults', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    );
    expect(res.status).toBe(200);
    const log = await getLog(sim);
    expect(log.status).toBe(200);
    const [line = ''] = log.text.trimEnd().split('\n').slice(-1);
    expect(line.length).toBeLessThanOrEqual(64 * 1024);
    expect(JSON.parse(line)).toEqual({
      at: '2026-01-01T00:00:00.000Z',
      type: 'control',
      action: 'setFaults',
      args: { errorRate: 0.5 },
      // The size of the line it stands for.
      truncated: {
        bytes: JSON.stringify({
          at: '2026-01-01T00:00:00.000Z',
          type: 'control',
          action: 'setFaults',
          args: JSON.parse(body),
        }).length,
        paths: ['args.failSettlement'],
      },
    });
    expect(log.headers.get('x-sim-log-dropped')).toBe('0');
  });
});
