import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MatchVenue } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs the example with the caller's target variables removed, then `env` added. */
function runExample(
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['MATCH_VENUE_BASE_URL', 'MATCH_VENUE_ENV', 'MATCH_VENUE_API_KEY'])
    delete childEnv[name];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'examples/webhook-receiver.ts'],
      { cwd: root, env: { ...childEnv, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

/** Both confirmations, v1 and v2 order events (v2 filtered to order.*), v1 balances, none failed. */
function expectVerifiedDeliveries(run: { code: number | null; stdout: string; stderr: string }): void {
  expect(run.stderr).toBe('');
  const lines = run.stdout.trim().split('\n');
  expect(
    lines.filter((l) => /^v1 SubscriptionConfirmation for arn:aws:sns:.* verified; confirmed: true$/.test(l)),
  ).toHaveLength(2);
  expect(lines).toContain('v1 details now: confirmed, confirmed');
  expect(lines.some((l) => l.startsWith('verified v1 order.accepted'))).toBe(true);
  expect(lines.some((l) => l.startsWith('verified v2 order.accepted'))).toBe(true);
  expect(lines.some((l) => /^verified v2 order\.updated .*status=filled/.test(l))).toBe(true);
  // The v2 subscription asked for order.* only; v1 has no type filter.
  expect(lines.some((l) => l.startsWith('verified v2 balance.'))).toBe(false);
  expect(lines.some((l) => l.startsWith('verified v1 balance.updated'))).toBe(true);
  expect(lines.at(-1)).toMatch(/^\d+ deliveries, 0 not delivered$/);
  expect(run.code).toBe(0);
}

describe('examples/webhook-receiver.ts', () => {
  it('receives, verifies and prints the simulator’s v1 and v2 deliveries, then exits 0 by itself', async () => {
    expectVerifiedDeliveries(await runExample());
  }, 70_000);

  it('runs against MATCH_VENUE_BASE_URL (a running simulator): its deliveries, its auction', async () => {
    const sim = createSimulator();
    try {
      const running = await sim.listen();
      expectVerifiedDeliveries(await runExample({ MATCH_VENUE_BASE_URL: running.url }));
      // The deliveries were this simulator's, and its auction cleared the example's orders.
      expect(sim.platform.deliveries().some((d) => d.kind === 'v1-confirmation')).toBe(true);
      const burner = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: running.url });
      expect((await burner.orders.list({ status: 'filled' })).pagination.total).toBe(1);
    } finally {
      await sim.close();
    }
  }, 70_000);
});
