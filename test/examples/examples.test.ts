import { execFile } from 'node:child_process';
import { MatchVenue } from 'match-venue';
import { createSimulator, type RunningSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runExample(file: string, env: Record<string, string> = {}, timeoutMs = 45_000): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // The examples pick their target from these; a value left over from the caller must not leak in.
  for (const name of [
    'MATCH_VENUE_BASE_URL',
    'MATCH_VENUE_ENV',
    'MATCH_VENUE_API_KEY',
    'MATCH_VENUE_SIM_CONTROL_TOKEN',
  ]) {
    if (!(name in env)) delete childEnv[name];
  }
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', `examples/${file}`],
      { env: childEnv, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let sim: Simulator;
let running: RunningSimulator;
beforeAll(async () => {
  sim = createSimulator();
  running = await sim.listen();
});
afterAll(async () => {
  await sim.close();
});

describe.concurrent('examples run by themselves and exit 0', () => {
  it.each([
    ['quickstart.ts', 'quickstart done'],
    ['market-maker.ts', 'market maker done'],
    ['quoting-bot.ts', 'quoting bot done'],
    ['list-and-reconcile.ts', 'reconciled: fills match the account summary'],
    ['withdraw.ts', 'withdraw done'],
    ['observability.ts', 'observability done'],
    ['demo.ts', 'demo finished'],
  ])(
    '%s',
    async (file, line) => {
      // The demo runs on a real clock and stops itself after 60 s with a message; let it say so.
      const run = await runExample(file, {}, file === 'demo.ts' ? 80_000 : 45_000);
      expect(run.stderr.replace(/^npm warn.*\n?/gm, '')).toBe('');
      expect(run.stdout).toContain(line);
      expect(run.code).toBe(0);
      // Tables read as a person would write them: no index column, no quoted cells, no colour
      // codes when piped.
      expect(run.stdout).not.toContain('(index)');
      expect(run.stdout).not.toMatch(/[│|] +'/);
      expect(run.stdout).not.toContain('\x1b[');
    },
    90_000,
  );

  it('withdraw in mock mode (MATCH_VENUE_ENV=mock)', async () => {
    const run = await runExample('withdraw.ts', { MATCH_VENUE_ENV: 'mock' });
    expect(run.stdout).toContain('withdraw done');
    expect(run.code).toBe(0);
  }, 90_000);

  it('quickstart against MATCH_VENUE_BASE_URL (a running simulator)', async () => {
    const run = await runExample('quickstart.ts', { MATCH_VENUE_BASE_URL: running.url });
    expect(run.stdout).toContain('quickstart done');
    expect(run.code).toBe(0);
    // The order it placed (and cancelled) lives in this process's simulator.
    const burner = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: running.url });
    const page = await burner.orders.list({ status: 'cancelled' });
    expect(page.pagination.total).toBe(1);
  }, 90_000);

  it('quickstart against a simulator that wants a control token, given as MATCH_VENUE_SIM_CONTROL_TOKEN', async () => {
    const guarded = createSimulator();
    try {
      const token = 'examples-control-token-0123';
      const server = await guarded.listen({ controlToken: token });
      const run = await runExample('quickstart.ts', {
        MATCH_VENUE_BASE_URL: server.url,
        MATCH_VENUE_SIM_CONTROL_TOKEN: token,
      });
      expect(run.stdout).toContain('quickstart done');
      expect(run.code).toBe(0);
    } finally {
      await guarded.close();
    }
  }, 90_000);
});
