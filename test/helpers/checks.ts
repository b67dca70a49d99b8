import { type Check, runCheck } from '../../src/validation/index.js';

/** `value` checked with a generated check: its output, or an Error listing every issue. */
export function parse<T>(check: Check<T>, value: unknown): T {
  const result = runCheck(check, value);
  if (result.ok) return result.value;
  throw new Error(result.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
}

/** Whether `check` accepts `value`. */
export function accepts(check: Check, value: unknown): boolean {
  return runCheck(check, value).ok;
}

/** The issues of a refused value as {path, message}; [] when the check accepts it. */
export function issuesOf(check: Check, value: unknown): { path: (string | number)[]; message: string }[] {
  const result = runCheck(check, value);
  return result.ok ? [] : result.issues.map(({ path, message }) => ({ path, message }));
}
