/**
 * package.json "prepare", which npm runs on a plain `npm install` in this folder, before `npm pack`
 * and `npm publish`, and in its own clone when a project installs the package from git (with
 * devDependencies installed there). Git holds no dist/, yet the exports, types and bin all point
 * into it, so every one of those gets a build.
 *
 * Only a working copy being set up for development (`npm install` here) also installs
 * test/node22/: Node 22 and msw 3 for test/runtimes/msw3-node22.test.ts. That is a separate install
 * because a Node binary package among the root's dependencies would put its own `node` first on
 * the PATH of every npm script. A clone that npm prepares as somebody's git dependency, and a pack,
 * only need dist/: they skip it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node22 = join(root, 'test/node22');

/** Why test/node22 is not installed this time, or undefined when it is. */
function skipNode22(env: NodeJS.ProcessEnv): string | undefined {
  if (!existsSync(join(node22, 'package.json'))) return 'no test/node22/package.json here';
  // pack and publish run prepare too; what they make carries no tests.
  if (!['install', 'ci', 'install-test', 'install-ci-test'].includes(env.npm_command ?? '')) {
    return `npm ${env.npm_command}`;
  }
  // How npm (pacote) prepares a git dependency: an `npm install` in its clone with this variable
  // set, then prepare once more with npm_package_resolved naming the clone. Nobody tests there.
  if (env._PACOTE_NO_PREPARE_ || env.npm_package_resolved) return 'a dependency being prepared';
  return undefined;
}

function run(args: string[]): void {
  execFileSync('npm', args, { cwd: root, stdio: 'inherit' });
}

run(['run', 'build']);
const skipped = skipNode22(process.env);
if (skipped) console.log(`prepare: test/node22 not installed (${skipped})`);
else {
  // npm checks engines against the Node running it, so it warns (EBADENGINE) that msw 3 wants Node
  // 22; the test runs msw 3 with the Node 22 this same install puts beside it.
  console.log(
    'prepare: Node 22 and msw 3 into test/node22 (any EBADENGINE warning about Node 22 is expected)',
  );
  run(['install', '--prefix', 'test/node22', '--no-audit', '--no-fund']);
}
