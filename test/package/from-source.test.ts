// The README's install line for a package not on npm yet (`npm install git+https://…`), run as typed
// in an empty folder, against a fresh clone of this repository's HEAD in place of the GitHub URL
// (so it tests what is committed, not the working tree). Git holds no dist/: the package only works
// if npm's preparation of the git dependency (devDependencies installed in its clone, then the
// `prepare` script, `npm run build`) builds it. Offline: every registry package comes from the
// npm cache this repository's own `npm install` filled (offline-install.ts). About 60 s alone;
// its limits grow with the machine's load (helpers/time-limits.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../helpers/time-limits.js';
import { offlineInstallFiles } from './offline-install.js';
import { root } from './pack.js';
import { baseUrlOf, type Started, start, stop, userEnv } from './shell.js';

const SECTION = '## Five minutes with the simulator';
const repositoryUrl = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    repository: { url: string };
  }
).repository.url;

/** The section's `npm install git+…` line, without its comment. */
function installLine(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(SECTION), readme.indexOf('\n## ', readme.indexOf(SECTION) + 1));
  const line = section.split('\n').find((l) => l.startsWith('npm install git+'));
  if (!line) throw new Error(`README.md's "${SECTION}" has no npm install git+… line`);
  return line.replace(/\s+#.*$/, '');
}

const git = (args: string[], cwd: string) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

describe("README's install line, from a fresh clone", () => {
  const work = mkdtempSync(join(tmpdir(), 'mv-from-source-'));
  const source = join(work, 'match-venue');
  const app = join(work, 'app');
  // npm prepares a git dependency in a folder under its cache's _cacache/tmp and leaves an empty
  // tree of it behind (npm 11.19): the ones this test made are removed with the rest.
  const npmTmp = join(
    execFileSync('npm', ['config', 'get', 'cache'], { env: userEnv(), encoding: 'utf8' }).trim(),
    '_cacache/tmp',
  );
  const listTmp = () => new Set(existsSync(npmTmp) ? readdirSync(npmTmp) : []);
  const before = listTmp();
  let installOutput = '';
  let sim: Started | undefined;

  afterAll(async () => {
    await stop(sim);
    rmSync(work, { recursive: true, force: true });
    for (const name of listTmp()) {
      if (!before.has(name) && name.startsWith('git-clone')) {
        rmSync(join(npmTmp, name), { recursive: true, force: true });
      }
    }
  });

  beforeAll(() => {
    git(['clone', '--quiet', root, source], work);
    const commit = git(['rev-parse', 'HEAD'], source);
    const url = `git+file://${source}`;
    mkdirSync(app);
    execFileSync('npm', ['init', '-y'], { cwd: app, env: userEnv(), stdio: 'ignore' });
    offlineInstallFiles(app, { spec: url, resolved: `${url}#${commit}` });

    const command = installLine().replace(repositoryUrl, url);
    expect(command).toBe(`npm install ${url}`);
    try {
      // Config through the environment, so the command is the README's: offline, and the git
      // dependency's prepare output shown rather than swallowed. The clone's own install (npm runs
      // `prepare` there) takes the root's dev dependencies: what building needs, no native build
      // (better-sqlite3, the store's optional peer, is test/'s). Most of the time is the build.
      // Both streams as one transcript: npm's warnings go to stderr.
      installOutput = execFileSync(`${command} 2>&1`, {
        cwd: app,
        shell: '/bin/sh',
        env: {
          ...userEnv(),
          npm_config_offline: 'true',
          npm_config_foreground_scripts: 'true',
        },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: scaled(150_000),
        killSignal: 'SIGKILL',
      });
    } catch (err) {
      const { stdout, stderr } = err as { stdout?: string; stderr?: string };
      throw new Error(`${command} failed (is the npm cache filled? run npm install):\n${stdout}\n${stderr}`);
    }
  }, scaled(160_000));

  it('names the repository package.json names, as a git+https URL', () => {
    expect(repositoryUrl).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
    expect(installLine()).toBe(`npm install ${repositoryUrl}`);
  });

  it('builds dist/ in the clone npm prepares, and installs no test-local folder there', () => {
    expect(installOutput).toMatch(/^> tsup$/m);
    expect(installOutput).not.toContain('local-installs:');
    expect(installOutput).not.toMatch(/EBADENGINE/);
    const installed = join(app, 'node_modules/match-venue');
    for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/simulator/cli.js']) {
      expect(existsSync(join(installed, file)), file).toBe(true);
    }
    expect(existsSync(join(installed, 'test'))).toBe(false);
  });

  it(
    'works: require and import, and npx runs the installed bin',
    async () => {
      const loaded = execFileSync(
        process.execPath,
        [
          '-e',
          "const cjs = require('match-venue'); import('match-venue/simulator').then((sim) => " +
            'console.log(typeof cjs.MatchVenue, typeof sim.createSimulator, sim.SEEDED.burner.apiKey.length > 0))',
        ],
        { cwd: app, env: userEnv(), encoding: 'utf8' },
      );
      expect(loaded.trim()).toBe('function function true');
      // --offline: a bin that was not installed would send npx to the registry, which fails here.
      sim = start('npx --offline match-venue-sim --port 0 --clock manual', app);
      expect(await baseUrlOf(sim, scaled(30_000))).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await stop(sim);
    },
    scaled(40_000),
  );
});
