/**
 * The command line of a single-file generator (scripts/generate-ui-assets.ts,
 * generate-scenario-schema.ts): write `text` to `file`, or with `--check` exit 1 when the file on
 * disk differs (CI's freshness check, `npm run generate:check`).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this folder's parent). */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Writes or checks `path` (relative to the repository root) against `text`. */
export function writeOrCheck(path: string, text: string, args: readonly string[] = process.argv): void {
  const file = join(repoRoot, path);
  if (!args.includes('--check')) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {}
  if (current !== text) {
    console.error(`stale: ${relative(repoRoot, file)} (run npm run generate)`);
    process.exit(1);
  }
}
