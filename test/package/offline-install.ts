// A user's project that installs match-venue offline: the package.json and package-lock.json that
// let `npm install --offline` take every registry package from the npm cache the repository's own
// installs filled (the root's `npm install`, and test/'s: scripts/local-installs.ts). Used by
// shared-app.ts (the packed tarball, for quickstart.test.ts and jest.test.ts) and from-source.test.ts
// (the README's git URL, pointed at a fresh clone).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { root } from './pack.js';
import { userEnv } from './shell.js';

interface LockEntry {
  version: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

export interface OfflineInstall {
  /** What package.json's dependencies say for match-venue: `file:../x.tgz`, `git+file:///…`. */
  spec: string;
  /** What npm resolved that to (the lockfile's `resolved`): a git URL carries `#<commit>`. */
  resolved: string;
  /** devDependencies of the project, at the versions this repository's lockfile has. */
  dev?: string[];
}

type Lock = Record<string, LockEntry>;

const readLock = (folder: string): Lock =>
  (JSON.parse(readFileSync(join(root, folder, 'package-lock.json'), 'utf8')) as { packages: Lock }).packages;

/** Where Node would find `name` from the package at `from` in `tree`: its own node_modules, then upwards. */
function locate(tree: Record<string, unknown>, from: string, name: string): string | undefined {
  for (let dir = from; ; ) {
    const path = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (tree[path]) return path;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}

/**
 * The app's packages: match-venue's dependencies and `dev`, each with its dependencies, taken from
 * the repository's lockfiles (the root's, then test/'s: Jest and ts-jest live there), so that every
 * tarball is one an install here put in the npm cache. Two lockfiles may hold one name at two
 * versions: a package goes where its dependant finds it, top level when free, else nested under
 * the dependant, which is how npm places a second version.
 */
function appPackages(names: readonly string[]): Lock {
  const locks = [readLock('.'), readLock('test')];
  const placed: Lock = {};
  /** Puts one entry where `parent` finds it; undefined when the version found there is this one. */
  const put = (lock: Lock, from: string, parent: string): string | undefined => {
    const name = from.slice(from.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const { dev: _d, devOptional: _o, peer: _p, ...entry } = lock[from]!;
    const seen = locate(placed, parent, name);
    if (seen && placed[seen]!.version === entry.version) return undefined;
    if (seen !== undefined && !parent) throw new Error(`two versions of ${name} asked for at the top level`);
    const at = seen === undefined ? `node_modules/${name}` : `${parent}/node_modules/${name}`;
    const file = `${basename(name)}-${entry.version}.tgz`;
    placed[at] = { resolved: `https://registry.npmjs.org/${name}/-/${file}`, ...entry };
    return at;
  };
  // A package's own dependencies are all put before any of theirs, so that nothing nested under it
  // later hides a version one of its descendants already resolved to.
  const expand = (lock: Lock, from: string, at: string) => {
    const entry = lock[from]!;
    // Required peers too (ts-jest's jest and typescript): npm installs them, and would otherwise
    // ask the registry for them.
    const peers = Object.keys(entry.peerDependencies ?? {}).filter(
      (peer) => !entry.peerDependenciesMeta?.[peer]?.optional,
    );
    const deps = [...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }), ...peers];
    const added: [string, string][] = [];
    for (const dep of deps) {
      const path = locate(lock, from, dep);
      const child = path === undefined ? undefined : put(lock, path, at);
      if (path && child) added.push([path, child]);
    }
    for (const [path, placedAt] of added) expand(lock, path, placedAt);
  };
  for (const name of names) {
    const lock = locks.find((l) => l[`node_modules/${name}`]);
    if (!lock) throw new Error(`${name} is in no lockfile of the repository (package-lock.json, test/)`);
    const at = put(lock, `node_modules/${name}`, '');
    if (at) expand(lock, `node_modules/${name}`, at);
  }
  return placed;
}

/**
 * Writes `app`'s package.json (match-venue at `spec`, plus `dev`) and a package-lock.json with every
 * other package pinned to the version and integrity this repository's lockfiles already installed:
 * npm then takes each tarball from its cache by integrity and never asks the registry for metadata
 * (a plain `npm install <spec> --offline` would, and the cache holds no such answers).
 */
export function offlineInstallFiles(app: string, { spec, resolved, dev = [] }: OfflineInstall): void {
  const published = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
    bin: Record<string, string>;
    engines?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, unknown>;
  };
  const packages = appPackages([...Object.keys(published.dependencies), ...dev]);

  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as Record<string, unknown>;
  manifest.dependencies = { 'match-venue': spec };
  if (dev.length > 0) {
    manifest.devDependencies = Object.fromEntries(
      dev.map((name) => [name, packages[`node_modules/${name}`]!.version]),
    );
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
  const { name, version } = manifest as { name: string; version: string };
  const appLock = {
    name,
    version,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name, version, dependencies: manifest.dependencies, devDependencies: manifest.devDependencies },
      'node_modules/match-venue': {
        version: published.version,
        resolved,
        dependencies: published.dependencies,
        bin: published.bin,
        engines: published.engines,
        peerDependencies: published.peerDependencies,
        peerDependenciesMeta: published.peerDependenciesMeta,
      },
      ...packages,
    },
  };
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(appLock, null, 2));
}

/**
 * Installs `tarball` (in the folder above `app`) and `devPackages` into `app`, which holds a
 * package.json with a name and version, offline. Throws with npm's stderr when the cache lacks
 * something.
 */
export function offlineInstall(app: string, tarball: string, devPackages: readonly string[]): void {
  const spec = `file:../${basename(tarball)}`;
  offlineInstallFiles(app, { spec, resolved: spec, dev: [...devPackages] });
  try {
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund'], {
      cwd: app,
      env: userEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new Error(`offline install failed (is the npm cache filled? run npm install):\n${stderr}`);
  }
}
