import { createSimulator, ScenarioError } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../../../src/simulator/engine/fault-presets.js';
import { parseCliArgs, USAGE, UsageError } from '../../../src/simulator/cli/args.js';

const VALID = 'fill-event-lost, ack-after-event, going-away, ticket-reused, settlement-slow';
const UNKNOWN = `unknown preset "fill-lost"; valid: ${VALID}`;

async function postFaults(body: unknown) {
  const sim = createSimulator();
  const res = await sim.handle(
    new Request('http://sim.test/_sim/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  return { sim, status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('fault presets: where they are set, and an unknown name refused', () => {
  it('POST /_sim/faults takes presets, and answers 400 naming the field, the bad name and the valid list', async () => {
    const ok = await postFaults({ presets: ['going-away', 'settlement-slow'], latencyMs: 0 });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ presets: ['going-away', 'settlement-slow'], latencyMs: 0 });
    expect(ok.sim.faults.presets).toEqual(['going-away', 'settlement-slow']);
    const bad = await postFaults({ presets: ['going-away', 'fill-lost'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 2,
      errors: [{ location: 'presets.1', message: UNKNOWN, invalidValue: 'fill-lost' }],
    });
    const twice = await postFaults({ presets: ['going-away', 'going-away'] });
    expect(twice.body).toMatchObject({
      errors: [{ location: 'presets', message: 'a preset is named twice' }],
    });
    // Nothing was applied by a refused body.
    expect(bad.sim.faults).toEqual({});
  });

  it('setFaults and the faults option take them; a reset goes back to the option', () => {
    const sim = createSimulator({ faults: { presets: ['ticket-reused'] } });
    expect(sim.faults).toEqual({ presets: ['ticket-reused'] });
    sim.setFaults({ presets: ['fill-event-lost'], errorRate: 0 });
    expect(sim.faults.presets).toEqual(['fill-event-lost']);
    sim.reset();
    expect(sim.faults).toEqual({ presets: ['ticket-reused'] });
    expect(() => createSimulator({ faults: { presets: ['fill-lost' as never] } })).toThrow(
      new RangeError(`faults.presets.0: ${UNKNOWN}`),
    );
  });

  it('a scenario schedules them by auction, and refuses an unknown one naming its path', () => {
    const sim = createSimulator({
      scenario: {
        version: 1,
        faults: [
          { atAuction: 1, set: { presets: ['going-away'] } },
          { atAuction: 3, set: { presets: ['settlement-slow'] } },
        ],
      },
    });
    expect(sim.faults).toEqual({ presets: ['going-away'] });
    sim.advance(20_000);
    expect(sim.faults).toEqual({ presets: ['settlement-slow'] });
    let refused: unknown;
    try {
      createSimulator({
        scenario: { version: 1, faults: [{ atAuction: 2, set: { presets: ['fill-lost' as never] } }] },
      });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ScenarioError);
    expect(refused).toMatchObject({ path: 'faults[0].set.presets[0]' });
    expect((refused as Error).message).toContain(UNKNOWN);
  });

  it('the CLI takes --faults a,b; an unknown name is a UsageError naming the flag; --help lists each preset', () => {
    expect(parseCliArgs(['--faults', 'going-away,ack-after-event'], {}).faults).toEqual([
      'going-away',
      'ack-after-event',
    ]);
    expect(() => parseCliArgs(['--faults', 'going-away,fill-lost'], {})).toThrow(
      new UsageError(`--faults: ${UNKNOWN}`),
    );
    expect(PRESET_NAMES.join(', ')).toBe(VALID);
    expect(USAGE).toMatch(/--faults <preset,\.\.\.>/);
    for (const name of PRESET_NAMES) expect(USAGE).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
  });

  it('a snapshot keeps the presets; restoring it brings them back', () => {
    const sim = createSimulator({ faults: { presets: ['fill-event-lost', 'settlement-slow'] } });
    const doc = sim.snapshot();
    expect(doc.faults).toEqual({ presets: ['fill-event-lost', 'settlement-slow'] });
    const other = createSimulator();
    other.restore(JSON.parse(JSON.stringify(doc)));
    expect(other.faults).toEqual({ presets: ['fill-event-lost', 'settlement-slow'] });
    // settlement-slow is in force after the restore: the clock's clear settles a cycle later.
    expect(other.engine.faults.slow).toBe(true);
    const bad = { ...doc, faults: { presets: ['fill-lost'] } };
    expect(() => other.restore(bad)).toThrow(`snapshot faults.presets.0: ${UNKNOWN}`);
    // A refused document changes nothing.
    expect(other.faults).toEqual({ presets: ['fill-event-lost', 'settlement-slow'] });
  });
});
