// Time limits that grow with the machine's load. A limit here is a bound on how long something
// may take before the test calls it hung, not a measurement: on a machine whose cores are shared
// with other work, installs and child processes take several times as long as on a quiet one, and
// a fixed limit turned that into failures. Base limits are sized for a quiet two-core machine.
import { availableParallelism, loadavg } from 'node:os';

/** At most this many times the base limit from load alone. */
const MAX_FROM_LOAD = 4;

/**
 * The factor in effect: MATCH_VENUE_TEST_TIME_SCALE when set (a positive number: a slow machine
 * whatever its load), else the one-minute load average per core, between 1 and 4.
 */
export function timeScale(env: NodeJS.ProcessEnv = process.env, load = loadavg()[0] ?? 0): number {
  const given = Number(env.MATCH_VENUE_TEST_TIME_SCALE);
  if (env.MATCH_VENUE_TEST_TIME_SCALE !== undefined && Number.isFinite(given) && given > 0) return given;
  return Math.min(MAX_FROM_LOAD, Math.max(1, load / availableParallelism()));
}

/** `baseMs` times the factor, read when the calling file loads (vitest reads a test's limit then). */
export function scaled(baseMs: number): number {
  return Math.round(baseMs * timeScale());
}
