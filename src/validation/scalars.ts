/**
 * Checks of single values (strings, integers, numbers, booleans, null, enumerations) and the rules
 * that run after a value's type check (pattern, length, bound, predicate).
 */
import { abortedSince, type Check, type CheckContext, type ErrorMap, make, raise } from './check.js';

// ---- scalar checks ------------------------------------------------------------------------------------

/**
 * A rule run after a value's type check (a pattern, a length, a bound, a predicate), with `test`: whether
 * a value of the right type passes it.
 */
export type Rule = ((value: unknown, ctx: CheckContext, map: ErrorMap | undefined, start: number) => void) & {
  test: (value: never) => boolean;
};

const rule = (
  run: (value: unknown, ctx: CheckContext, map: ErrorMap | undefined, start: number) => void,
  test: (value: never) => boolean,
): Rule => Object.assign(run, { test });

const passes = (rules: readonly Rule[], value: unknown): boolean => {
  for (const r of rules) if (!r.test(value as never)) return false;
  return true;
};

/**
 * `value` matches `re`: an invalid_format issue that does not stop later rules. `format` names the
 * string format the pattern is the check of (`uuid`, `date-time`), for the issue's constraints.
 */
export function pattern(re: RegExp, message?: string, format?: string): Rule {
  return rule(
    (value, ctx, map, start) => {
      if (abortedSince(ctx, start)) return;
      re.lastIndex = 0;
      if (re.test(value as string)) return;
      raise(ctx, {
        code: 'invalid_format',
        input: value,
        continue: true,
        message,
        map,
        format,
        pattern: re.source,
      });
    },
    (value: string) => {
      re.lastIndex = 0;
      return re.test(value);
    },
  );
}

/** A string length in code points, as JSON Schema's minLength counts it (a lone surrogate is one). */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * A string's minimum length (`minLength`). It runs on anything with a `length` even after
 * a wrong type (its `when`), unless an issue explicitly aborted.
 */
export function minLength(minimum: number, message?: string): Rule {
  return rule(
    (value, ctx, map) => {
      if (value === null || value === undefined) return;
      const units = (value as { length?: unknown }).length;
      if (units === undefined) return;
      const length = typeof value === 'string' ? codePoints(value) : (units as number);
      if (length >= minimum) return;
      const origin = Array.isArray(value) ? 'array' : typeof value === 'string' ? 'string' : 'unknown';
      raise(ctx, { code: 'too_small', input: value, continue: true, message, map, origin, bound: minimum });
    },
    // A code point is one or two units: only between the two bounds is the count in doubt.
    (value: string) =>
      value.length >= minimum * 2 || (value.length >= minimum && codePoints(value) >= minimum),
  );
}

/** A number's `minimum` / `maximum`. */
export function bound(kind: 'min' | 'max', limit: number, message?: string): Rule {
  const within = (n: number) => (kind === 'min' ? n >= limit : n <= limit);
  return rule((value, ctx, map, start) => {
    if (abortedSince(ctx, start)) return;
    if (within(value as number)) return;
    raise(ctx, {
      code: kind === 'min' ? 'too_small' : 'too_big',
      input: value,
      continue: true,
      message,
      map,
      origin: 'number',
      bound: limit,
    });
  }, within);
}

/** A predicate: a custom issue (at `at` below the value), unless an earlier issue aborted. */
export function refine(test: (value: never) => boolean, message?: string, at?: (string | number)[]): Rule {
  return rule((value, ctx, map, start) => {
    if (abortedSince(ctx, start)) return;
    if (test(value as never)) return;
    raise(ctx, { code: 'custom', input: value, continue: true, message, map, at });
  }, test);
}

export function runRules(
  value: unknown,
  ctx: CheckContext,
  rules: readonly Rule[],
  map: ErrorMap | undefined,
  start: number,
) {
  for (const rule of rules) rule(value, ctx, map, start);
}

/** A string, then its rules. */
export function string(map?: ErrorMap, rules: readonly Rule[] = []): Check<string> {
  return make(
    (value, ctx) => {
      const start = ctx.issues.length;
      if (typeof value !== 'string')
        raise(ctx, { code: 'invalid_type', expected: 'string', input: value, continue: false, map });
      runRules(value, ctx, rules, map, start);
      return value as string;
    },
    { pure: true, test: (value) => typeof value === 'string' && passes(rules, value) },
  );
}

/**
 * A string `format` (`uuid`, `date-time`): a string whose pattern is the schema's own
 * first check, worded by the schema's map.
 */
export function format(name: string, re: RegExp, map?: ErrorMap, rules: readonly Rule[] = []): Check<string> {
  return string(map, [pattern(re, undefined, name), ...rules]);
}

/** An integer (a safe one), then its rules (bounds). */
export function int(map?: ErrorMap, rules: readonly Rule[] = []): Check<number> {
  return make(
    (value, ctx) => {
      const start = ctx.issues.length;
      if (
        typeof value !== 'number' ||
        Number.isNaN(value) ||
        !Number.isFinite(value) ||
        !Number.isInteger(value)
      ) {
        raise(ctx, { code: 'invalid_type', expected: 'int', input: value, continue: false, map });
      } else if (!Number.isSafeInteger(value)) {
        const big = value > 0;
        raise(ctx, {
          code: big ? 'too_big' : 'too_small',
          input: value,
          continue: true,
          map,
          origin: 'int',
          bound: big ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER,
        });
      }
      runRules(value, ctx, rules, map, start);
      return value as number;
    },
    { pure: true, test: (value) => Number.isSafeInteger(value) && passes(rules, value) },
  );
}

/** A finite number. */
export function number(map?: ErrorMap): Check<number> {
  return make(
    (value, ctx) => {
      if (typeof value !== 'number' || Number.isNaN(value) || !Number.isFinite(value))
        raise(ctx, { code: 'invalid_type', expected: 'number', input: value, continue: false, map });
      return value as number;
    },
    { pure: true, test: (value) => typeof value === 'number' && Number.isFinite(value) },
  );
}

/** A boolean. */
export function boolean(map?: ErrorMap): Check<boolean> {
  return make(
    (value, ctx) => {
      if (typeof value !== 'boolean')
        raise(ctx, { code: 'invalid_type', expected: 'boolean', input: value, continue: false, map });
      return value as boolean;
    },
    { pure: true, test: (value) => typeof value === 'boolean' },
  );
}

/** null. */
export function nullValue(map?: ErrorMap): Check<null> {
  return make(
    (value, ctx) => {
      if (value !== null)
        raise(ctx, { code: 'invalid_type', expected: 'null', input: value, continue: false, map });
      return null;
    },
    { pure: true, test: (value) => value === null },
  );
}

/** Nothing (a key that must be absent). */
export function never(map?: ErrorMap): Check<never> {
  return make(
    (value, ctx) => {
      raise(ctx, { code: 'invalid_type', expected: 'never', input: value, continue: false, map });
      return value as never;
    },
    { pure: true, test: () => false },
  );
}

/** Anything. */
export const unknown: Check<unknown> = make((value) => value, { pure: true, test: () => true });

/** A `const` or an `enum`. */
export function oneOf<const T extends string | number>(options: readonly T[], map?: ErrorMap): Check<T> {
  const values = new Set<unknown>(options);
  return make(
    (value, ctx) => {
      if (!values.has(value))
        raise(ctx, { code: 'invalid_value', input: value, continue: false, map, values: options });
      return value as T;
    },
    { pure: true, values, test: (value) => values.has(value) },
  );
}
