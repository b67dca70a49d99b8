/** Issue 21: match-venue-sim serves the dashboard by default and prints where; --no-ui turns it off. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';

let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGINT');
    await once(child, 'exit');
  }
  child = undefined;
});

/** Starts the CLI (tsx, as the other CLI tests) and resolves with its output once the banner is out. */
async function start(args: string[]): Promise<{ text: string; base: string }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/simulator/cli.ts', '--port', '0', '--clock', 'manual', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child = proc;
  let text = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in: ${text}`)), 20_000);
    proc.stdout?.on('data', (b: Buffer) => {
      text += b.toString();
      const base = /base URL:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
      if (base && text.includes('clock:')) {
        clearTimeout(timer);
        resolve({ text, base });
      }
    });
    proc.once('exit', (code) => reject(new Error(`cli exited (${code}): ${text}`)));
  });
}

describe('match-venue-sim and the dashboard', () => {
  it('prints the dashboard URL at startup and serves it', async () => {
    const { text, base } = await start([]);
    expect(text).toContain(`dashboard:     ${base}/_sim/ui\n`);
    const page = await fetch(`${base}/_sim/ui`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="module" src="/_sim/ui/dashboard.js">');
  });

  it('--no-ui serves no dashboard and prints none', async () => {
    const { text, base } = await start(['--no-ui']);
    expect(text).not.toContain('dashboard:');
    expect((await fetch(`${base}/_sim/ui`)).status).toBe(404);
  });
});
