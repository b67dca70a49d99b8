import { readFileSync } from 'node:fs';
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { BASE, cli, request, useCliCleanup } from './cli-process.js';

useCliCleanup();

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
