import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, type Simulator } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import type { SimulatorEvent } from '../../../src/simulator/engine/types.js';

// A reset or a restore starts a new history, and a store's file starts over with it. Nothing the
// new engine does may read the old history's file: not the market's first placements (their keys
// repeat the old history's), not the first balance events (their activity window).
const OPTIONS = {
  startTime: Date.parse('2026-01-01T00:00:00Z'),
  seed: 5,
  market: { preset: 'busy', noise: { count: 16 }, liquidity: { count: 2 } },
} as const;
const dir = mkdtempSync(join(tmpdir(), 'match-venue-new-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The events a simulator sends from `act` on, and what the market did, after `auctions` more. */
function runFrom(sim: Simulator, act: () => void, auctions: number) {
  const events: SimulatorEvent[] = [];
  const stop = sim.onEvent((e) => events.push(e));
  act();
  for (let i = 0; i < auctions; i++) sim.advance(10_000);
  stop();
  return { events: events.map((e) => JSON.parse(JSON.stringify(e))), market: sim.getState().market };
}

describe('store: a new history reads nothing of the old one', () => {
  it('after a reset, events and the market are those of a simulator without a store', async () => {
    const stored = createSimulator({ ...OPTIONS, store: { file: join(dir, 'reset.db'), retainMs: 10_000 } });
    const plain = createSimulator(OPTIONS);
    for (const sim of [stored, plain]) for (let i = 0; i < 8; i++) sim.advance(10_000);
    const [got, want] = [stored, plain].map((sim) => runFrom(sim, () => sim.reset(), 3));
    expect(want?.events.length).toBeGreaterThan(100);
    expect(got).toEqual(want);
    await Promise.all([stored.close(), plain.close()]);
  });

  it('after a restore, likewise', async () => {
    const stored = createSimulator({
      ...OPTIONS,
      store: { file: join(dir, 'restore.db'), retainMs: 10_000 },
    });
    const plain = createSimulator(OPTIONS);
    const fresh = createSimulator(OPTIONS).snapshot();
    for (const sim of [stored, plain]) for (let i = 0; i < 8; i++) sim.advance(10_000);
    const [got, want] = [stored, plain].map((sim) => runFrom(sim, () => sim.restore(fresh), 3));
    expect(want?.events.length).toBeGreaterThan(100);
    expect(got).toEqual(want);
    await Promise.all([stored.close(), plain.close()]);
  });
});
