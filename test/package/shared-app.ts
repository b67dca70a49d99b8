// One packed tarball and one offline install of it, shared by the tests that need the package as a
// user installs it (quickstart.test.ts, jest.test.ts): across test files, vitest's worker processes
// and runs. It lives in a folder under the temp directory named by a hash of what the install
// depends on (package.json, every file of dist/, the packages installed beside it), so a new build
// gets a new install and an unchanged one is reused. The first caller packs and installs while
// holding a lock folder; the others wait for it to finish (a watch on the folder, which sees the
// lock go and the install appear). Each test works in its own folder inside the app, and removes it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { offlineInstall } from './offline-install.js';
import { packInto, root } from './pack.js';
import { userEnv } from './shell.js';

/**
 * Installed beside the package: what the README's quickstart adds (tsx) and what its Jest section
 * tells a ts-jest user to install (jest.test.ts checks the README names no other), plus what the
 * Jest suites use besides (@types/node, msw).
 */
export const APP_DEV = ['tsx', 'jest', 'ts-jest', 'typescript', '@types/jest', '@types/node', 'msw'] as const;

const base = join(tmpdir(), 'match-venue-package-tests');
const lock = join(base, 'lock');
/** Installs of other builds older than this are removed when a new one is made. */
const KEEP_MS = 24 * 3600_000;

/** The hash of what the shared install depends on. */
function key(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(root, 'package.json')));
  hash.update(readFileSync(join(root, 'package-lock.json')));
  hash.update(readFileSync(join(root, 'test/package-lock.json')));
  hash.update(APP_DEV.join(','));
  const dist = join(root, 'dist');
  if (!existsSync(dist)) throw new Error('dist/ is missing: run `npm run build` (`npm test` builds first)');
  for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(dist, file);
    if (statSync(path).isFile()) hash.update(`${file}\0`).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock folder, or says it is held by a live process (a dead holder's lock is removed). */
function tryLock(): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const pid = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : NaN);
    // A holder that died (a killed run) leaves its lock behind; one still writing its pid is alive.
    if (Number.isInteger(pid) && !alive(pid)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

/** Resolves when an entry of `base` changes (the lock removed, an install renamed in), or at `ms`. */
function changeIn(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(base, () => done());
    const timer = setTimeout(() => done(), ms);
    const done = () => {
      clearTimeout(timer);
      watcher.close();
      resolve();
    };
  });
}

/** Packs and installs into `dir` (holding the lock); removes installs of other builds left behind. */
function build(dir: string): void {
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const app = join(building, 'app');
  mkdirSync(app, { recursive: true });
  execFileSync('npm', ['init', '-y'], { cwd: app, env: userEnv(), stdio: 'ignore' });
  offlineInstall(app, packInto(building), APP_DEV);
  writeFileSync(join(building, 'ready'), new Date().toISOString());
  renameSync(building, dir);
  for (const name of readdirSync(base)) {
    const other = join(base, name);
    if (other !== dir && other !== lock && Date.now() - statSync(other).mtimeMs > KEEP_MS) {
      rmSync(other, { recursive: true, force: true });
    }
  }
}

/**
 * The shared app folder: `npm init -y`'s package.json, the packed package and APP_DEV installed
 * offline. Waits up to `limitMs` for another process that is making it.
 */
export async function sharedApp(limitMs: number): Promise<string> {
  mkdirSync(base, { recursive: true });
  const dir = join(base, key());
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (existsSync(join(dir, 'ready'))) return join(dir, 'app');
    if (tryLock()) {
      try {
        if (!existsSync(join(dir, 'ready'))) build(dir);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      continue;
    }
    if (Date.now() > deadline) throw new Error(`no shared install after ${limitMs} ms (lock: ${lock})`);
    // The watch starts after the checks above: a change in between is seen at the next check, at
    // most a second later.
    await changeIn(Math.min(1_000, deadline - Date.now() + 1));
  }
}
