// README's "Five minutes with the simulator" as a newcomer does it: in a folder with the packed
// package and tsx installed, the simulator started through the package's bin, and the README's own
// code (read out of README.md, never copied here) run the way the README says. The install is the
// one shared with jest.test.ts (shared-app.ts: offline, from the npm cache the repository's own
// installs filled; the Jest packages sit beside tsx there), and the code runs in a folder of its
// own inside it. Reads dist/ as built (`npm test` builds first); about 15-25 s with the install,
// 5-10 s without.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../helpers/time-limits.js';
import { root } from './pack.js';
import { baseUrlOf, exited, groupAlive, type Started, start, stop } from './shell.js';
import { sharedApp } from './shared-app.js';

const SECTION = '## Five minutes with the simulator';
/**
 * The port of the README's command and code. Every whole-word match is replaced: with 0 in the
 * command (the simulator picks a free port and prints its URL), then with that port in the code.
 */
const README_PORT = /\b4010\b/g;

interface Block {
  lang: string;
  body: string;
}

/** The section's prose (fenced blocks removed) and its fenced blocks, in order. */
function readSection(): { prose: string; blocks: Block[] } {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
  const start = lines.indexOf(SECTION);
  if (start < 0) throw new Error(`README.md has no "${SECTION}" heading`);
  const prose: string[] = [];
  const blocks: Block[] = [];
  let open: { lang: string; lines: string[] } | undefined;
  for (const line of lines.slice(start + 1)) {
    if (open) {
      if (/^```\s*$/.test(line)) {
        blocks.push({ lang: open.lang, body: `${open.lines.join('\n')}\n` });
        open = undefined;
      } else open.lines.push(line);
    } else if (line.startsWith('```')) open = { lang: line.slice(3).trim(), lines: [] };
    else if (/^## /.test(line)) break;
    else prose.push(line);
  }
  return { prose: prose.join('\n'), blocks };
}

describe('README quickstart, in a folder with the packed package', () => {
  const section = readSection();
  let app: string;
  /** This run's folder in the shared app: where the simulator starts and the code is saved. */
  let work: string;
  let sim: Started | undefined;
  let run: Started | undefined;

  afterAll(async () => {
    await stop(run);
    await stop(sim);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  beforeAll(async () => {
    // What the README's install line and `npm install --save-dev tsx` do, from the tarball and
    // offline (from-source.test.ts runs that line itself, against a fresh clone). npx and Node
    // find the app's node_modules from the run's folder by walking up.
    app = await sharedApp(scaled(150_000));
    work = mkdtempSync(join(app, 'quickstart-'));
  }, scaled(160_000));

  it('names every step: init, install, tsx, the simulator, the file and how to run it', () => {
    const setup = section.blocks.find((b) => b.lang === 'bash')?.body ?? '';
    expect(setup).toMatch(/^npm init -y$/m);
    // Before the package is on npm, the install line builds it from git (from-source.test.ts).
    expect(setup).toMatch(/^npm install git\+https:\/\/\S+\.git\b/m);
    expect(section.prose).toContain('`npm install match-venue`');
    expect(setup).toMatch(/^npm install (--save-dev|-D) tsx\b/m);
    expect(setup).toMatch(/^npx match-venue-sim .*--port 4010\b/m);
    expect(section.blocks.filter((b) => b.lang === 'ts')).toHaveLength(1);
    expect(section.prose).toMatch(/`npx tsx [\w.-]+\.mts`/);
  });

  it(
    'runs: the simulator from the bin, the code as README says, the output its comments show',
    async () => {
      // npm init -y gave the folder the default CommonJS type, which is what the quickstart must survive.
      expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).type).toBe('commonjs');

      const setup = section.blocks.find((b) => b.lang === 'bash')!.body;
      const simLine = setup.split('\n').find((l) => l.startsWith('npx match-venue-sim '))!;
      const simCommand = simLine.replace(/\s+#.*$/, '').replace(README_PORT, '0');
      expect(simCommand).toMatch(/--port 0\b/);
      sim = start(simCommand, work);
      const baseUrl = await baseUrlOf(sim, scaled(30_000));
      const port = new URL(baseUrl).port;

      const code = section.blocks.find((b) => b.lang === 'ts')!.body;
      expect(code.match(README_PORT)?.length ?? 0).toBeGreaterThan(0);
      const runCommand = /`(npx tsx ([\w.-]+\.mts))`/.exec(section.prose)!;
      writeFileSync(join(work, runCommand[2]!), code.replace(README_PORT, port));

      run = start(runCommand[1]!, work);
      const status = await exited(run, scaled(45_000));
      expect(status, run.transcript()).toBe(0);
      expect(run.printed().split('\n').filter(Boolean)).toEqual([
        "{ amount: '100000000.00', currency: 'USD' }",
        expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        "filled { amount: '1000.00', currency: 'USD' } 3.00",
        'pending',
        'Invalid orders.place params:',
        '  - amount.amount: must be at least 100 and a multiple of 100',
        '400 136002',
      ]);

      await stop(sim);
      expect(groupAlive(sim.pid!)).toBe(false);
    },
    scaled(90_000),
  );
});
