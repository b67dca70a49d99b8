/**
 * The distribution's Chromium for the browser tests (no browser download at run time). Where it is
 * missing the tests skip naming the install command, except under CI=true, where they fail:
 * .ci/run installs it first.
 */
import { existsSync } from 'node:fs';

export const INSTALL_COMMAND = 'apt-get update && apt-get install -y chromium';
const CANDIDATES = [process.env.MATCH_VENUE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The executable, or undefined (after saying why) when the tests are to skip. */
export function findChromium(): string | undefined {
  const found = CANDIDATES.find((path): path is string => path !== undefined && existsSync(path));
  if (found) return found;
  const message = `Chromium not found (looked at ${CANDIDATES.filter(Boolean).join(', ')}); install it with: ${INSTALL_COMMAND}`;
  if (process.env.CI === 'true') throw new Error(`${message} (CI=true: browser tests must run)`);
  console.warn(`browser tests skipped: ${message}`);
  return undefined;
}
