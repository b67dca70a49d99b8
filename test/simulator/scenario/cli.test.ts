import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEEDED } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, useCliCleanup } from '../cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'scenario-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

useCliCleanup();

/** The `startup` line of a `--json` CLI, once it is written. */
async function startupLine(out: { text: string }): Promise<Record<string, unknown>> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const line = out.text.split('\n').find((l) => l.includes('"type":"startup"'));
    if (line) return JSON.parse(line);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no startup line in: ${out.text}`);
}

describe('match-venue-sim --scenario <file>', () => {
  it('runs an example scenario: its clock, and its fault in the named auction', async () => {
    const c = cli([
      '--scenario',
      'examples/scenarios/fault-drill.yaml',
      '--port',
      '0',
      '--json',
      '-q',
      '--no-ui',
    ]);
    const startup = await startupLine(c.out);
    expect(startup).toMatchObject({
      clock: 'manual',
      scenario: 'examples/scenarios/fault-drill.yaml',
      now: '2026-01-05T09:00:00.000Z',
      auction: { auctionId: 1, phase: 'open' },
    });
    const url = startup.url as string;
    const account = async () => {
      const res = await fetch(`${url}/v1/match/account`, {
        headers: { authorization: `Bearer ${SEEDED.burner.apiKey}` },
      });
      const body = (await res.json()) as { code?: number };
      return [res.status, body.code ?? null];
    };
    expect(await account()).toEqual([200, null]);
    for (let i = 0; i < 2; i++)
      expect((await fetch(`${url}/_sim/auctions/clear`, { method: 'POST' })).status).toBe(200);
    expect(await account()).toEqual([503, -1]);
    expect((await fetch(`${url}/_sim/auctions/clear`, { method: 'POST' })).status).toBe(200);
    expect(await account()).toEqual([200, null]);
    c.proc.kill('SIGINT');
    expect((await c.exited)[0]).toBe(0);
  });

  it('a flag wins over the scenario: --clock real', async () => {
    const c = cli([
      '--scenario',
      'examples/scenarios/fault-drill.yaml',
      '--clock',
      'real',
      '--port',
      '0',
      '--json',
      '--no-ui',
    ]);
    expect(await startupLine(c.out)).toMatchObject({ clock: 'real' });
  });

  it('refuses a scenario with a mistake before it starts: exit 2 naming the file, path and rule', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(
      bad,
      'version: 1\nphases:\n  - fromAuction: 1\n    market: busy\n  - fromAuction: 3\n    market:\n      noise: { size: { min: "50.00", max: "900.00" } }\n',
    );
    const c = cli(['--scenario', bad, '--port', '0']);
    expect((await c.exited)[0]).toBe(2);
    expect(c.out.err).toBe(
      `match-venue-sim: --scenario: ${bad}: phases[1].market.noise.size must be positive multiples of 100.00 (the venue's order amounts)\n` +
        'Run match-venue-sim --help for every flag.\n',
    );
    expect(c.out.text).toBe('');
  });
});
