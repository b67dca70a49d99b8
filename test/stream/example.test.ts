import { execFile } from 'node:child_process';
import { MatchVenue } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';

/** Runs the example with the caller's target variables removed, then `env` added. */
function runExample(
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  // Nothing from the caller's environment may redirect the example; only what a test gives.
  for (const name of ['MATCH_VENUE_BASE_URL', 'MATCH_VENUE_WS_URL', 'MATCH_VENUE_ENV', 'MATCH_VENUE_API_KEY'])
    delete childEnv[name];
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', 'examples/stream-events.ts'],
      { env: { ...childEnv, ...env }, timeout: 40_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The output shows both channels over two auctions, each clearing the example's two orders. */
function expectTwoAuctions(run: { code: number | null; stdout: string; stderr: string }): void {
  expect(run.stderr.replace(/^npm warn.*\n?/gm, '')).toBe('');
  expect(run.code).toBe(0);
  const lines = run.stdout.split('\n');
  const kinds = (prefix: string) =>
    new Set(lines.filter((l) => l.startsWith(prefix)).map((l) => l.split(/\s+/)[2]));
  expect(kinds('[market]')).toEqual(
    new Set(['auction.snapshot', 'auction.locked', 'auction.cleared', 'auction.opened', 'auction.settled']),
  );
  expect(kinds('[account]')).toEqual(new Set(['order.accepted', 'order.updated', 'balance.updated']));
  expect(run.stdout).toMatch(/auction \d+: fee 5\.00 bps, matched 600\.00 USD/);
  expect(lines).toContain('done: two auctions settled');
}

describe('examples/stream-events.ts', () => {
  it('prints live market and account events of two auctions and exits 0 by itself', async () => {
    expectTwoAuctions(await runExample());
  }, 60_000);

  it('runs against MATCH_VENUE_BASE_URL (a running simulator on a manual clock), clearing there', async () => {
    const sim = createSimulator();
    try {
      const running = await sim.listen();
      expectTwoAuctions(await runExample({ MATCH_VENUE_BASE_URL: running.url }));
      // The orders it placed live in this process's simulator: a BURN in each auction it saw open
      // (the next one opens before the second settles, so two or three).
      const burner = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: running.url });
      const page = await burner.orders.list({ orderType: 'BURN' });
      expect(page.pagination.total).toBeGreaterThanOrEqual(2);
    } finally {
      await sim.close();
    }
  }, 60_000);
});
