import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchVenueError } from 'match-venue';
import { createSimulator, loadScenario, ScenarioError } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The message and path createSimulator refuses `scenario` with. */
function refusal(scenario: unknown): { message: string; path: string } {
  try {
    createSimulator({ scenario: scenario as never });
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError);
    expect(err).toBeInstanceOf(MatchVenueError);
    expect(err).toMatchObject({ code: 'SIM_SCENARIO_INVALID', name: 'ScenarioError' });
    return { message: (err as ScenarioError).message, path: (err as ScenarioError).path };
  }
  throw new Error('accepted');
}

describe('a scenario with a mistake is refused before the simulator starts', () => {
  it('names the path and the rule', () => {
    const busy = { fromAuction: 1, market: 'busy' };
    const cases: [unknown, string, string][] = [
      [
        {
          version: 1,
          phases: [busy, { fromAuction: 5, market: { noise: { size: { min: '50.00', max: '900.00' } } } }],
        },
        'phases[1].market.noise.size',
        "must be positive multiples of 100.00 (the venue's order amounts)",
      ],
      [
        { version: 1, phases: [busy, { fromAuction: 5, market: { noise: { activity: 1.5 } } }] },
        'phases[1].market.noise.activity',
        'must be at most 1',
      ],
      [
        { version: 1, phases: [{ fromAuction: 1, market: 'bsy' }] },
        'phases[0].market',
        'Invalid option: expected one of "calm"|"busy"|"one-sided"',
      ],
      [
        { version: 1, phases: [busy, { fromAuction: 1, market: 'calm' }] },
        'phases[1].fromAuction',
        'must be greater than phases[0].fromAuction (1)',
      ],
      [{ version: 1, faults: [{ atAuction: 0, set: {} }] }, 'faults[0].atAuction', 'must be at least 1'],
      [
        { version: 1, faults: [{ atAuction: 2, set: { errorRate: 2 } }] },
        'faults[0].set.errorRate',
        'Too big: expected number to be <=1',
      ],
      [
        { version: 1, faults: [{ atAuction: 2, set: { errrRate: 1 } }] },
        'faults[0].set',
        'Unrecognized key: "errrRate"',
      ],
      [
        { version: 1, clock: { lockMs: 10_000 } },
        'clock.lockMs',
        'must be shorter than clock.cycleMs (10000)',
      ],
      // Found by the fuzz driver (issue 33): a cycle within the default lock window was the engine's
      // RangeError, and a cycle past a year made a simulator whose own snapshot could not restore.
      [
        { version: 1, clock: { cycleMs: 1 } },
        'clock.cycleMs',
        'must be longer than the lock window (lockMs 2000)',
      ],
      [
        { version: 1, clock: { cycleMs: 2 ** 53 - 1 } },
        'clock.cycleMs',
        'must be at most 31536000000 ms (a year)',
      ],
      [
        { version: 1, clock: { startTime: '2026-01-01T00:00:00' } },
        'clock.startTime',
        'must be an ISO 8601 instant with Z or an offset (e.g. 2026-01-01T00:00:00Z), integer epoch milliseconds or a valid Date, between 1970 and 9999; got "2026-01-01T00:00:00"',
      ],
      [
        { version: 1, entities: { 'My Bot': {} } },
        'entities.My Bot',
        'must be 2-32 characters: lowercase letters, digits and -, starting with a letter',
      ],
      [
        { version: 1, entities: { burner: { wallet: '1.005' } } },
        'entities.burner.wallet',
        'must be a USD amount with at most 2 decimals, as a string',
      ],
      [
        { version: 1, entities: { burner: { fundingSide: 'MINT' } } },
        'entities.burner.fundingSide',
        'applies to a new entity only: a seeded entity keeps its side',
      ],
      [
        { version: 1, entities: { noaccount: {} } },
        'entities.noaccount',
        'has no venue account: it holds no balances',
      ],
      [{ seed: 1 }, 'version', 'is required: version: 1 (the scenario format)'],
      [{ version: 2 }, 'version', '2 is not supported: this simulator reads version 1 only'],
      [{ version: 1, sed: 1 }, '', 'Unrecognized key: "sed"'],
    ];
    for (const [scenario, path, rule] of cases)
      expect(refusal(scenario)).toEqual({ path, message: `scenario: ${path ? `${path} ` : ''}${rule}` });
  });

  it('checks the cycle against the lock it runs with (an option included); refuses options past a year', () => {
    const fast = { version: 1, clock: { cycleMs: 1_000 } } as const;
    expect(refusal(fast)).toEqual({
      path: 'clock.cycleMs',
      message: 'scenario: clock.cycleMs must be longer than the lock window (lockMs 2000)',
    });
    createSimulator({ scenario: fast, lockMs: 100 }).close();
    expect(() => createSimulator({ cycleMs: 2 ** 53 - 1 })).toThrow(
      'cycleMs must be an integer from 1 to 31536000000 ms (a year); got 9007199254740991',
    );
    expect(() => createSimulator({ settleMs: -1 })).toThrow(/^settleMs must be an integer from 0/);
  });

  it('a file names itself too, by the one loader', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'version: 1\nphases:\n  - fromAuction: 1\n    market: { noise: { count: -1 } }\n');
    const message = `${bad}: phases[0].market.noise.count must not be negative`;
    await expect(loadScenario(bad)).rejects.toThrow(message);
    writeFileSync(join(dir, 'broken.yaml'), 'version: [1\n');
    await expect(loadScenario(join(dir, 'broken.yaml'))).rejects.toThrow(/broken\.yaml: is not valid YAML/);
    await expect(loadScenario(join(dir, 'missing.yaml'))).rejects.toThrow(/missing\.yaml: cannot be read/);
  });
});

describe('a JSON scenario is read as JSON, a YAML one as YAML, by the one loader', () => {
  it('a .json file goes through JSON.parse: a mistake is a JSON error naming the line and column', async () => {
    // A trailing comma: YAML's flow mappings take it, JSON does not.
    const comma = join(dir, 'comma.json');
    writeFileSync(comma, '{\n  "version": 1,\n  "seed": 7,\n}\n');
    // Node 20 names a position (the reader adds line and column), later versions both.
    const message = new RegExp(`^${comma}: is not valid JSON: .*position 31.*\\(line 4,? column 1\\)$`);
    await expect(loadScenario(comma)).rejects.toThrow(message);
    // YAML in a file named .json is refused as JSON, not read as YAML.
    const yamlInJson = join(dir, 'yaml.json');
    writeFileSync(yamlInJson, 'version: 1\n');
    await expect(loadScenario(yamlInJson)).rejects.toThrow(`${yamlInJson}: is not valid JSON:`);
    // Without a known extension, a document that starts with { is JSON.
    const bare = join(dir, 'scenario-file');
    writeFileSync(bare, '{"version": 1, "seed": 7,}');
    await expect(loadScenario(bare)).rejects.toThrow(/is not valid JSON: .*\(line 1,? column 26\)$/);
    writeFileSync(bare, 'version: 1\nseed: 7\n');
    expect(await loadScenario(bare)).toEqual({ version: 1, seed: 7 });
  });

  it('a 0.5 MB JSON scenario loads as written', async () => {
    const entities = Object.fromEntries(
      Array.from({ length: 6000 }, (_, i) => [
        `bot-${i}`,
        { wallet: '1000.00', venueBalance: '2000.00', bank: '3.00' },
      ]),
    );
    const doc = { version: 1, seed: 3, entities };
    const file = join(dir, 'big.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    expect(JSON.stringify(doc, null, 2).length).toBeGreaterThan(500_000);
    expect(await loadScenario(file)).toEqual(doc);
  });
});

describe('scenario settings under explicit options', () => {
  const scenario = {
    version: 1 as const,
    seed: 9,
    clock: { mode: 'real' as const, startTime: '2026-03-01T00:00:00Z', cycleMs: 4000, lockMs: 1000 },
    phases: [{ fromAuction: 1, market: 'calm' as const }],
  };

  it('the scenario gives clock, start, cycle and market when no option does', async () => {
    const sim = createSimulator({ scenario });
    expect(sim.clock).toBe('real');
    const { auction } = sim.getState();
    expect([auction.opensAt, auction.locksAt]).toEqual([
      '2026-03-01T00:00:00.000Z',
      '2026-03-01T00:00:03.000Z',
    ]);
    expect(sim.snapshot().seed).toBe(9);
    expect(sim.getState().market?.participants).toBe(22);
    await sim.close();
  });

  it('an option given wins: clock, startTime and seed one by one, market over every phase', () => {
    const sim = createSimulator({
      scenario,
      clock: 'manual',
      startTime: '2026-04-01T00:00:00Z',
      seed: 2,
      market: { preset: 'calm', noise: { count: 4 }, liquidity: { count: 0 } },
    });
    expect(sim.clock).toBe('manual');
    expect(sim.getState().auction.opensAt).toBe('2026-04-01T00:00:00.000Z');
    expect(sim.getState().auction.clearsAt).toBe('2026-04-01T00:00:04.000Z');
    expect(sim.snapshot().seed).toBe(2);
    expect(sim.getState().market?.participants).toBe(4);
  });
});
