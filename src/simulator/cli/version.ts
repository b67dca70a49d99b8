import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'match-venue';

/** The package's own package.json in `dir`, or undefined when `dir` holds none (or another's). */
function ownPackage(dir: string): { version?: unknown } | undefined {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name?: unknown;
      version?: unknown;
    };
    return pkg.name === PACKAGE_NAME ? pkg : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The folder of the package's own package.json, found by walking up from this file: the same code
 * runs as src/simulator/cli/version.ts under tsx and bundled into dist/simulator/cli.js in the
 * installed package, at different depths.
 */
export function packageRoot(from: string = import.meta.url): string | undefined {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    if (ownPackage(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The version in the package's own package.json ('unknown' when it cannot be found). */
export function packageVersion(from: string = import.meta.url): string {
  const root = packageRoot(from);
  const version = root === undefined ? undefined : ownPackage(root)?.version;
  return typeof version === 'string' ? version : 'unknown';
}
