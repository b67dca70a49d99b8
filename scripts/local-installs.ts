/**
 * The folders that install what the tests and benchmarks use, kept out of the root's
 * devDependencies: npm installs those in its clone whenever a project installs match-venue from
 * git, and they should hold only what building needs. Each folder here has its own package.json and
 * package-lock.json, and Node finds its node_modules from any file below it by walking up.
 *
 * - test/: runtimes (Bun, Deno), Jest, a browser driver, better-sqlite3 (a native build), the
 *   package checkers and the OpenAPI linter.
 * - test/node22/: Node 22 and msw 3 for test/runtimes/msw3-node22.test.ts. Separate from test/
 *   because the tests under test/ import msw 2, the version the root builds against. npm checks
 *   every package's `engines` against the Node running npm and warns (EBADENGINE) about msw 3,
 *   which wants Node 22, when that is Node 20; so the folder installs in two steps: its Node binary
 *   (msw, a devDependency there, omitted), then the whole folder by npm running on that Node.
 * - bench/: autocannon, for bench/serve.ts.
 *
 * `npm run setup:test` (run by `npm run check`) and every vitest run (vitest.config.ts, globalSetup)
 * install a folder only when its package.json or package-lock.json changed since its last install
 * here: an unchanged tree costs a hash of two files. `--prefer-offline`: the npm cache answers what
 * it holds, so a second clone installs without the network.
 *
 * Usage: tsx scripts/local-installs.ts [folder...]   (default: all three)
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export const LOCAL_FOLDERS = ['test', 'test/node22', 'bench'] as const;

/** Where a folder's install records what it installed from; inside node_modules, so a wipe resets it. */
const STAMP = 'node_modules/.match-venue-installed';

/** The hash of what an install of `folder` depends on: its manifest and its lockfile. */
function fingerprint(folder: string): string {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) {
    const path = join(root, folder, file);
    hash.update(`${file}\0${existsSync(path) ? readFileSync(path, 'utf8') : ''}\0`);
  }
  return hash.digest('hex');
}

/**
 * The environment of the nested npm. An npm script's environment names the repository root
 * (npm_config_local_prefix, npm_package_*), which would make the nested npm act on the root; the
 * settings a user may have given the outer npm for the network and the cache are kept.
 */
function npmEnv(): NodeJS.ProcessEnv {
  const keep = /^npm_config_(cache|offline|prefer_offline|registry|userconfig)$/i;
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || keep.test(key)),
  );
}

/** The registry's package of the Node binary for this platform (test/node22/package.json). */
export function nodePackage(): string {
  return `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
}

/** Installs `folder` when what it depends on changed since its last install; says what it did. */
export function ensureInstalled(folder: string): 'unchanged' | 'installed' {
  const stamp = join(root, folder, STAMP);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint(folder)) return 'unchanged';
  const started = Date.now();
  console.log(`local-installs: installing ${folder}/ (its package.json or lockfile changed)`);
  const npm = (extra: string[], env: NodeJS.ProcessEnv) =>
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        folder,
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel',
        'warn',
        ...extra,
      ],
      { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  if (folder === 'test/node22') {
    npm(['--omit', 'dev'], npmEnv());
    const bin = join(root, folder, 'node_modules', nodePackage(), 'bin');
    // npm's launcher starts `node` from the PATH: this folder's Node 22 first.
    if (existsSync(bin)) npm([], { ...npmEnv(), PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` });
    else
      console.log(`local-installs: no Node 22 binary for ${process.platform}-${process.arch}; msw 3 skipped`);
  } else npm([], npmEnv());
  // After the install: the first install of a folder may write its lockfile.
  writeFileSync(stamp, fingerprint(folder));
  console.log(`local-installs: ${folder}/ installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return 'installed';
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((f) => !(LOCAL_FOLDERS as readonly string[]).includes(f));
  if (unknown.length > 0) throw new Error(`not a local install folder: ${unknown.join(', ')}`);
  for (const folder of asked.length > 0 ? asked : LOCAL_FOLDERS) ensureInstalled(folder);
}
