// A bot's folder outside the repository with the packed package installed as `npm install` would,
// but offline: the install reads only the npm cache this repository's own `npm install` filled.
// Used by the downstream tests (quickstart.test.ts, jest.test.ts).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { npmEnv, root } from './pack.js';

/** A clean user shell: none of npm's script variables, no SDK settings, no inherited loaders. */
export function userEnv(): NodeJS.ProcessEnv {
  const env = npmEnv();
  for (const key of Object.keys(env)) {
    if (/^(MATCH_VENUE_|NODE_OPTIONS$|FORCE_COLOR$)/.test(key)) delete env[key];
  }
  return env;
}

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

/**
 * package.json and package-lock.json for `npm install --offline` of the tarball plus `devPackages`
 * (at the versions this repository installed), with every package pinned to the version and
 * integrity this repository's lockfile already installed: npm then takes each tarball from its
 * cache by integrity and never asks the registry for metadata (a plain `npm install <tarball>
 * --offline` would, and the cache holds no such answers).
 */
function offlineInstallFiles(app: string, tarball: string, devPackages: readonly string[]): void {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const published = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
    bin: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, unknown>;
  };
  // Where Node would find `name` from the package at `from`: its own node_modules, then upwards.
  const locate = (from: string, name: string): string | undefined => {
    for (let dir = from; ; ) {
      const path = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (lock.packages[path]) return path;
      if (!dir) return undefined;
      const cut = dir.lastIndexOf('/node_modules/');
      dir = cut < 0 ? '' : dir.slice(0, cut);
    }
  };
  const packages: Record<string, LockEntry> = {};
  const visit = (path: string) => {
    if (packages[path]) return;
    const { dev: _d, devOptional: _o, peer: _p, ...entry } = lock.packages[path]!;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const file = `${basename(name)}-${entry.version}.tgz`;
    packages[path] = { resolved: `https://registry.npmjs.org/${name}/-/${file}`, ...entry };
    // Required peers too (ts-jest's jest and typescript): npm installs them, and would otherwise
    // ask the registry for them.
    const peers = Object.keys(entry.peerDependencies ?? {}).filter(
      (peer) => !entry.peerDependenciesMeta?.[peer]?.optional,
    );
    for (const dep of [...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }), ...peers]) {
      const found = locate(path, dep);
      if (found) visit(found);
    }
  };
  const roots = [...Object.keys(published.dependencies), ...devPackages];
  for (const name of roots) visit(locate('', name) ?? `node_modules/${name}`);

  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as Record<string, unknown>;
  const tarballSpec = `file:../${basename(tarball)}`;
  manifest.dependencies = { 'match-venue': tarballSpec };
  manifest.devDependencies = Object.fromEntries(
    devPackages.map((name) => [name, packages[`node_modules/${name}`]!.version]),
  );
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
        resolved: tarballSpec,
        dependencies: published.dependencies,
        bin: published.bin,
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
  offlineInstallFiles(app, tarball, devPackages);
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
