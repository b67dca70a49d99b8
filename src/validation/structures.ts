/**
 * Checks of composite values: optional, nullable and defaulted values, arrays, objects and
 * discriminated unions, the fast path of a generated predicate, and running a check from the root.
 */
import {
  type Check,
  type CheckContext,
  type CheckIssue,
  type ErrorMap,
  make,
  raise,
  type UnknownKeys,
} from './check.js';
import { type Rule, runRules } from './scalars.js';

// ---- wrappers -------------------------------------------------------------------------------------------

/** The value, or nothing. */
export function optional<Out, In>(inner: Check<Out, In>): Check<Out | undefined, In | undefined> {
  const test = inner.test;
  return make((value, ctx) => (value === undefined ? undefined : inner(value, ctx)), {
    pure: inner.pure,
    test: test && ((value) => value === undefined || test(value)),
    optin: inner.optin === 'defaulted' ? 'defaulted' : 'optional',
    optout: 'optional',
    values: inner.values && new Set([...inner.values, undefined]),
  });
}

/** The value, or null. */
export function nullable<Out, In>(inner: Check<Out, In>): Check<Out | null, In | null> {
  const test = inner.test;
  return make((value, ctx) => (value === null ? null : inner(value, ctx)), {
    pure: inner.pure,
    test: test && ((value) => value === null || test(value)),
    optin: inner.optin,
    optout: inner.optout,
    values: inner.values && new Set([...inner.values, null]),
  });
}

/** A `default`: a missing value becomes `v`, unchecked. */
export function withDefault<Out, In>(inner: Check<Out, In>, fallback: Out): Check<Out, In | undefined> {
  return make((value, ctx) => (value === undefined ? fallback : inner(value, ctx)), {
    pure: false,
    optin: 'defaulted',
    values: inner.values,
  });
}

/** `fn` first, then `inner` on what it returned (a query string's integer read as a number). */
export function preprocess<Out, In>(fn: (value: never) => unknown, inner: Check<Out, In>): Check<Out, In> {
  return make((value, ctx) => inner(fn(value as never), ctx), {
    pure: false,
    optin: 'optional',
    optout: inner.optout,
  });
}

/** An array of `item`. */
export function array<Out, In>(item: Check<Out, In>, map?: ErrorMap): Check<Out[], In[]> {
  const pure = item.pure;
  return make(
    (value, ctx) => {
      if (!Array.isArray(value)) {
        raise(ctx, { code: 'invalid_type', expected: 'array', input: value, continue: false, map });
        return value as Out[];
      }
      const out: Out[] | undefined = pure ? undefined : new Array(value.length);
      const path = ctx.path;
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        const result = item(value[i], ctx);
        path.pop();
        if (out) out[i] = result;
      }
      return out ?? (value as Out[]);
    },
    {
      pure,
      test:
        item.test &&
        ((value) => {
          if (!Array.isArray(value)) return false;
          const test = item.test as (value: unknown) => boolean;
          for (let i = 0; i < value.length; i++) if (!test(value[i])) return false;
          return true;
        }),
    },
  );
}
// ---- objects ----------------------------------------------------------------------------------------------

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An object with `map`, then its rules. Each
 * property: a missing optional key stays missing; a missing
 * required key fails with the property's own 'is required'.
 */
export function object<Out>(
  shape: Readonly<Record<string, Check>>,
  keys: UnknownKeys,
  map?: ErrorMap,
  rules: readonly Rule[] = [],
): Check<Out> {
  const names = Object.keys(shape);
  const entries = names.map((name) => [name, shape[name] as Check] as const);
  const known = new Set(names);
  // Valid input comes back as it is when nothing inside builds a new value and no key is dropped.
  const pure = keys === 'loose' && entries.every(([, check]) => check.pure) && rules.length === 0;
  const fn = (value: unknown, ctx: CheckContext): Out => {
    const start = ctx.issues.length;
    if (!isObject(value)) {
      raise(ctx, { code: 'invalid_type', expected: 'object', input: value, continue: false, map });
      runRules(value, ctx, rules, map, start);
      return value as Out;
    }
    const out: Record<string, unknown> | undefined = pure ? undefined : {};
    const path = ctx.path;
    for (const [name, check] of entries) {
      if (name === '__proto__') continue;
      const present = name in value;
      const optionalOut = check.optout === 'optional';
      if (!present && optionalOut && check.optin === 'optional') continue;
      const before = ctx.issues.length;
      path.push(name);
      const result = check(value[name], ctx);
      path.pop();
      if (ctx.issues.length > before) {
        // Errors on an absent key of an optional schema are ignored.
        if (check.optin !== undefined && optionalOut && !present) {
          ctx.issues.length = before;
          continue;
        }
      }
      if (!present && check.optin === undefined) {
        if (ctx.issues.length === before)
          raise(ctx, {
            code: 'invalid_type',
            expected: 'nonoptional',
            input: undefined,
            continue: false,
            at: [name],
          });
        continue;
      }
      if (!out) continue;
      if (result === undefined) {
        if (present || (check.optin === 'defaulted' && !optionalOut)) out[name] = undefined;
      } else out[name] = result;
    }
    if (keys !== 'strip') {
      const unrecognized: string[] = [];
      for (const key in value) {
        if (known.has(key)) continue;
        if (keys === 'strict') unrecognized.push(key);
        else if (out && key !== '__proto__') out[key] = value[key];
      }
      if (unrecognized.length > 0)
        raise(ctx, { code: 'unrecognized_keys', input: value, continue: true, map, keys: unrecognized });
    }
    const result = (out ?? value) as Out;
    runRules(result, ctx, rules, map, start);
    return result;
  };
  // The hot path of a valid response: no output, path or issue, and no walk over unknown keys.
  const tests = pure ? entries.map(([name, check]) => [name, check, check.test] as const) : [];
  const test =
    pure && tests.every(([, , t]) => t !== undefined)
      ? (value: unknown): boolean => {
          if (!isObject(value)) return false;
          for (const [name, check, t] of tests) {
            if (name in value) {
              if (!(t as (value: unknown) => boolean)(value[name])) return false;
            } else if (!(check.optout === 'optional' && check.optin !== undefined)) {
              // A missing key is fine only where the schema is optional (or defaulted).
              if (check.optin !== 'defaulted' || !(t as (value: unknown) => boolean)(undefined)) return false;
            }
          }
          return true;
        }
      : undefined;
  return make(fn, { pure, shape, test });
}

/**
 * A `oneOf` with a `discriminator` on `key`: the option whose `key` literal matches the
 * input's, run as if it were the union; a refinement on the union (`rules`) sees its issues.
 */
export function discriminatedUnion<Out>(
  key: string,
  options: readonly Check[],
  map?: ErrorMap,
  rules: readonly Rule[] = [],
): Check<Out> {
  const byValue = new Map<unknown, Check>();
  // Each option names its literal `key` (generate.ts checks the discriminator mapping).
  for (const option of options) for (const v of option.shape?.[key]?.values ?? []) byValue.set(v, option);
  const optionValues = [...byValue.keys()];
  const pure = options.every((option) => option.pure) && rules.length === 0;
  return make(
    (value, ctx) => {
      const start = ctx.issues.length;
      let out: unknown = value;
      if (!isObject(value)) {
        raise(ctx, { code: 'invalid_type', expected: 'object', input: value, continue: false, map });
      } else {
        const option = byValue.get(value[key]);
        if (option) out = option(value, ctx);
        else
          raise(ctx, {
            code: 'invalid_union',
            input: value,
            continue: false,
            map,
            options: optionValues,
            at: [key],
          });
      }
      runRules(out, ctx, rules, map, start);
      return out as Out;
    },
    {
      pure,
      test:
        pure && options.every((option) => option.test)
          ? (value) => {
              if (!isObject(value)) return false;
              return byValue.get(value[key])?.test?.(value) ?? false;
            }
          : undefined,
    },
  );
}

/**
 * `check` with a generated predicate as its fast path (generated/validators.ts): straight-line code
 * that accepts exactly what `check` accepts, for a pure check (its valid values come back as they are).
 */
export function withTest<Out, In>(check: Check<Out, In>, test: (value: unknown) => boolean): Check<Out, In> {
  check.test = test;
  return check;
}

// ---- running ------------------------------------------------------------------------------------------------

/** The outcome of {@link runCheck}: the output, or every issue. */
export type CheckResult<T> = { ok: true; value: T } | { ok: false; issues: CheckIssue[] };

/** Runs `check` on `value` from the root. */
export function runCheck<Out>(check: Check<Out, unknown>, value: unknown): CheckResult<Out> {
  if (check.test?.(value)) return { ok: true, value: value as Out };
  const ctx: CheckContext = { path: [], issues: [] };
  const out = check(value, ctx);
  return ctx.issues.length === 0 ? { ok: true, value: out } : { ok: false, issues: ctx.issues };
}
