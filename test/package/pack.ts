// What `npm pack` makes of the repository: the file list a reader of the tarball gets, and the
// tarball itself. Both read dist/ as it is, so `npm test` builds before vitest runs these.
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Packed {
  /** The tarball's file name (in the destination folder; nothing is written on a dry run). */
  filename: string;
  /** Bytes of the files once unpacked, and of the gzipped tarball. */
  unpackedSize: number;
  size: number;
  /** Paths relative to the package root, e.g. `dist/index.js`. */
  files: { path: string; size: number }[];
}

/**
 * The environment for an npm child process. npm hands every script (and `npx vitest`) variables
 * such as `npm_config_local_prefix` naming this repository, which would make an npm run in
 * another folder act on this one; the cache location is kept, since offline installs read it.
 */
export function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) || /^npm_config_cache$/i.test(key)) env[key] = value;
  }
  return env;
}

function pack(args: string[]): Packed {
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: npmEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [packed] = JSON.parse(out) as Packed[];
  if (!packed) throw new Error(`npm pack printed no package: ${out}`);
  return packed;
}

/** `npm pack --dry-run --json`: what would be published, without writing a tarball. */
export function packList(): Packed {
  return pack(['--dry-run']);
}

/** Packs into `dir` and returns the tarball's path. */
export function packInto(dir: string): string {
  return join(dir, pack(['--pack-destination', dir]).filename);
}
