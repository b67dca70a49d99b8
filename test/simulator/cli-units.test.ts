import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nearestFlag } from '../../src/simulator/cli/args.js';
import { wantsColour } from '../../src/simulator/cli/log-format.js';
import { packageVersion } from '../../src/simulator/cli/version.js';

// The CLI's pieces that need no process: test/simulator/cli-serve.test.ts and its siblings run the CLI itself.
describe('match-venue-sim pieces', () => {
  it('finds the version from the installed layout too (dist/simulator/cli.js in node_modules/match-venue)', () => {
    const root = mkdtempSync(join(tmpdir(), 'mv-version-'));
    try {
      const pkg = join(root, 'node_modules', 'match-venue');
      mkdirSync(join(pkg, 'dist', 'simulator'), { recursive: true });
      writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'my-bot', version: '1.0.0' }));
      writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'match-venue', version: '9.8.7' }));
      expect(packageVersion(pathToFileURL(join(pkg, 'dist', 'simulator', 'cli.js')).href)).toBe('9.8.7');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('suggests by typo distance and by prefix', () => {
    expect(nearestFlag('prot')).toBe('port');
    expect(nearestFlag('cylce-ms')).toBe('cycle-ms');
    expect(nearestFlag('quite')).toBe('quiet');
    expect(nearestFlag('start')).toBe('start-time');
    expect(nearestFlag('jsno')).toBe('json');
    expect(nearestFlag('banana')).toBeUndefined();
  });

  it('colours a terminal only: NO_COLOR, NODE_DISABLE_COLORS, TERM=dumb and --json refuse it, FORCE_COLOR forces it', () => {
    const tty = { isTTY: true };
    expect(wantsColour(tty, {}, false)).toBe(true);
    expect(wantsColour(tty, { NO_COLOR: '1' }, false)).toBe(false);
    expect(wantsColour(tty, { NO_COLOR: '' }, false)).toBe(true);
    expect(wantsColour(tty, { TERM: 'dumb' }, false)).toBe(false);
    expect(wantsColour(tty, { NODE_DISABLE_COLORS: '1' }, false)).toBe(false);
    expect(wantsColour(tty, {}, true)).toBe(false);
    expect(wantsColour({ isTTY: false }, {}, false)).toBe(false);
    expect(wantsColour({ isTTY: false }, { FORCE_COLOR: '1' }, false)).toBe(true);
    expect(wantsColour(tty, { FORCE_COLOR: '0' }, false)).toBe(false);
    expect(wantsColour({ isTTY: false }, { FORCE_COLOR: '1' }, true)).toBe(false);
  });
});
