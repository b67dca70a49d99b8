// vitest's globalSetup (vitest.config.ts): the test-local installs, before any test file loads, so
// that `npx vitest run <file>` works in a clone where only `npm install` ran. A hash of two files
// per folder when nothing changed (scripts/local-installs.ts).
import { ensureInstalled } from '../scripts/local-installs.js';

export default function setup(): void {
  for (const folder of ['test', 'test/node22']) ensureInstalled(folder);
}
