import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('examples/stream-events.ts', () => {
  it('prints live market and account events of two auctions and exits 0 by itself', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    // The example builds its own mock venue; nothing from the caller's environment may redirect it.
    for (const name of [
      'MATCH_VENUE_BASE_URL',
      'MATCH_VENUE_WS_URL',
      'MATCH_VENUE_ENV',
      'MATCH_VENUE_API_KEY',
    ])
      delete env[name];
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'npx',
        ['tsx', 'examples/stream-events.ts'],
        { env, timeout: 40_000 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });
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
  }, 60_000);
});
