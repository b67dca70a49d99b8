import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('examples/webhook-receiver.ts', () => {
  it('receives, verifies and prints the simulator’s v1 and v2 deliveries, then exits 0 by itself', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ['MATCH_VENUE_BASE_URL', 'MATCH_VENUE_ENV', 'MATCH_VENUE_API_KEY']) delete env[name];
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'examples/webhook-receiver.ts'],
        { cwd: root, env, timeout: 60_000 },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
        },
      );
    });
    expect(run.stderr).toBe('');
    const lines = run.stdout.trim().split('\n');
    expect(
      lines.filter((l) =>
        /^v1 SubscriptionConfirmation for arn:aws:sns:.* verified; confirmed: true$/.test(l),
      ),
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
  }, 70_000);
});
