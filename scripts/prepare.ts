/**
 * package.json "prepare": npm runs it on a plain `npm install` in this folder, before `npm pack` and
 * `npm publish`, and when a project installs match-venue from git. Git holds no dist/, yet the
 * exports, types and bin all point into it, so each of those gets a build (`npm run build`).
 *
 * Except one: to install a git dependency npm (pacote) clones it, runs `npm install` in the clone
 * with _PACOTE_NO_PREPARE_ set (which runs this script too), then runs this script once more with
 * npm_package_resolved naming the clone, and packs what that left. The first run would build for
 * nothing, and the build is most of the time such an install takes: it is skipped. The test-local
 * folders (test/, test/node22/, bench/) are never installed here: `npm run check` does that
 * (scripts/local-installs.ts).
 */
import { execFileSync } from 'node:child_process';

const env = process.env;
if (env._PACOTE_NO_PREPARE_ && !env.npm_package_resolved && env.npm_command === 'install') {
  console.log('prepare: no build in the install of a git clone; the prepare npm runs after it builds');
} else {
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
}
