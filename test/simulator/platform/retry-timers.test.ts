import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../fixtures/platform/retry-timers.ts', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('webhook retry timers', () => {
  it('keep the process alive only while idle() is awaited', async () => {
    // A hang (the ten-minute retry holding the loop) fails on the kill below, not on timing.
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', script],
        { cwd: root, timeout: 60_000 },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
        },
      );
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual([
      'queue idle: delivered after 2 attempts',
      'platform idle: delivered after 2 attempts',
      'left retrying: pending after 1 attempt',
    ]);
    expect(run.code).toBe(0);
  }, 70_000);
});
