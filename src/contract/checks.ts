/**
 * Plain validators with zod's semantics, for the client: the same accept/reject, the same output
 * (defaults filled, query integers read, unknown keys kept, stripped or refused) and the same issues
 * (path, code, message) as the generated zod schemas, at a fraction of the cost and with nothing to
 * load. src/generated/validators.ts composes them from openapi/ next to the zod schemas;
 * test/contract/validators.test.ts proves the two agree on valid and mutated inputs.
 *
 * Only what the schemas use is here. Where zod's rules are subtle, the comment says which rule of
 * zod 4 is mirrored (zod/v4/core: schemas.js, checks.js, locales/en.js).
 */

/** One failed rule: where, what kind (zod's issue code), and the rule in words. */
export interface CheckIssue {
  path: (string | number)[];
  code: string;
  message: string;
  /**
   * zod's `continue`: false for an issue after which the value's own refinements do not run (a
   * wrong type, a missing key); true for one after which they still do (a pattern, a bound).
   */
  continue: boolean;
}

/** The state of one validation: the path walked to the current value and the issues so far. */
export interface CheckContext {
  path: (string | number)[];
  issues: CheckIssue[];
}

/** How a schema treats a missing value in an object (zod's optin/optout). */
type Optionality = { optin?: 'optional' | 'defaulted' | undefined; optout?: 'optional' | undefined };

/**
 * A validator: returns its output for `value` (meaningful only when it added no issue to `ctx`).
 * `In` is what a caller may pass, `Out` what a valid value becomes; both are only types.
 */
export interface Check<Out = unknown, In = Out> extends Optionality {
  (value: unknown, ctx: CheckContext): Out;
  /** The values a literal or enum accepts (discriminated unions look options up by them). */
  values?: ReadonlySet<unknown> | undefined;
  /** For an object: its properties, unknown-key rule and map, for `extend` and `omit`. */
  shape?: Readonly<Record<string, Check>> | undefined;
  objectOf?: { keys: UnknownKeys; map: ErrorMap | undefined } | undefined;
  /** Output is the input itself whenever valid (no default, transform or stripping inside). */
  pure: boolean;
  /**
   * For a pure check: whether `value` is valid, with no issue, path or output built (the hot path
   * of a valid response). Exactly as strict as running the check.
   */
  test?: ((value: unknown) => boolean) | undefined;
  /** Phantom: the input type. */
  readonly __input?: In;
}

/** The output type of a check. */
export type CheckOutput<C> = C extends Check<infer Out, unknown> ? Out : never;
/** The input type of a check. */
export type CheckInput<C> = C extends Check<unknown, infer In> ? In : never;

/** A schema's own message for an issue it raised (zod's `error` option); undefined defers. */
export type ErrorMap = (input: unknown, code: string) => string | undefined;

/** generated schemas' `messages(rule)`: 'is required' when missing, else the rule (or zod's own). */
export function messages(rule?: string): ErrorMap {
  return (input) => (input === undefined ? 'is required' : rule);
}

/** generated schemas' `typeMessage(rule)`: the rule replaces only the wrong-type message. */
export function typeMessage(rule: string): ErrorMap {
  return (input, code) => (input === undefined ? 'is required' : code === 'invalid_type' ? rule : undefined);
}

/** A constant message (zod's `{ error: '...' }`). */
export function always(message: string): ErrorMap {
  return () => message;
}

// ---- zod's English messages (locales/en.js) ---------------------------------------------------------

/** zod's util.parsedType. */
function parsedType(data: unknown): string {
  const t = typeof data;
  if (t === 'number') return Number.isNaN(data) ? 'nan' : 'number';
  if (t === 'object') {
    if (data === null) return 'null';
    if (Array.isArray(data)) return 'array';
    const obj = data as { constructor?: { name?: string } };
    if (Object.getPrototypeOf(obj) !== Object.prototype && 'constructor' in obj && obj.constructor)
      return String(obj.constructor.name);
  }
  return t;
}

function typeName(type: string, input?: unknown): string {
  if (type === 'number' && typeof input === 'number' && !Number.isFinite(input)) return String(input);
  return type === 'nan' ? 'NaN' : type;
}

function stringifyPrimitive(value: unknown): string {
  if (typeof value === 'bigint') return `${value.toString()}n`;
  if (typeof value === 'string') return `"${value}"`;
  return `${String(value)}`;
}

const joinValues = (values: readonly unknown[], separator = '|'): string =>
  values.map(stringifyPrimitive).join(separator);

/** The English text of an issue zod would write (only the codes raised here). */
function english(issue: Raised): string {
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${typeName(issue.expected ?? '')}, received ${typeName(parsedType(issue.input), issue.input)}`;
    case 'invalid_value': {
      const values = issue.values ?? [];
      if (values.length === 1) return `Invalid input: expected ${stringifyPrimitive(values[0])}`;
      return `Invalid option: expected one of ${joinValues(values)}`;
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = String(issue.bound);
      const origin = issue.origin ?? 'value';
      const unit = origin === 'string' ? 'characters' : origin === 'array' ? 'items' : undefined;
      const word = small ? 'Too small' : 'Too big';
      const adj = small ? '>=' : '<=';
      return unit
        ? `${word}: expected ${origin} to have ${adj}${bound} ${unit}`
        : `${word}: expected ${origin} to be ${adj}${bound}`;
    }
    case 'unrecognized_keys': {
      const keys = issue.keys ?? [];
      return `Unrecognized key${keys.length > 1 ? 's' : ''}: ${joinValues(keys, ', ')}`;
    }
    case 'invalid_union': {
      const options = issue.options ?? [];
      if (options.length > 0)
        return `Invalid discriminator value. Expected ${options.map((o) => `'${String(o)}'`).join(' | ')}`;
      return 'Invalid input';
    }
    default:
      return 'Invalid input';
  }
}

/** What a check knows when it raises an issue; `message` and the error maps decide its text. */
interface Raised {
  code: string;
  input: unknown;
  continue: boolean;
  /** The check's own message (zod: the check's `error`). */
  message?: string | undefined;
  /** The raising schema's error map (zod: its `error`, which also words its checks' issues). */
  map?: ErrorMap | undefined;
  expected?: string;
  values?: readonly unknown[];
  origin?: string;
  bound?: number;
  keys?: readonly string[];
  options?: readonly unknown[];
  /** Path below the current value (a refinement's `path`). */
  at?: readonly (string | number)[];
}

function raise(ctx: CheckContext, raised: Raised): void {
  const message = raised.message ?? raised.map?.(raised.input, raised.code) ?? english(raised);
  const path = raised.at ? [...ctx.path, ...raised.at] : ctx.path.slice();
  ctx.issues.push({ path, code: raised.code, message, continue: raised.continue });
}

/** zod's util.aborted: an issue since `start` that stops the value's refinements. */
function abortedSince(ctx: CheckContext, start: number): boolean {
  for (let i = start; i < ctx.issues.length; i++) if (!ctx.issues[i]?.continue) return true;
  return false;
}

function make<Out, In = Out>(
  fn: (value: unknown, ctx: CheckContext) => Out,
  props: Partial<Pick<Check, 'optin' | 'optout' | 'values' | 'shape' | 'objectOf' | 'test'>> & {
    pure: boolean;
  },
): Check<Out, In> {
  return Object.assign(fn, props) as Check<Out, In>;
}

// ---- scalar checks ------------------------------------------------------------------------------------

/**
 * A rule run after a value's type check (zod's `.regex`, `.min`, `.refine`), with `test`: whether
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

/** zod's `.regex(re, { error })`: an invalid_format issue that does not abort. */
export function pattern(re: RegExp, message?: string): Rule {
  return rule(
    (value, ctx, map, start) => {
      if (abortedSince(ctx, start)) return;
      re.lastIndex = 0;
      if (re.test(value as string)) return;
      raise(ctx, { code: 'invalid_format', input: value, continue: true, message, map });
    },
    (value: string) => {
      re.lastIndex = 0;
      return re.test(value);
    },
  );
}

/** A string length in code points, as zod counts it (a lone surrogate is one). */
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
 * zod's `.min(n, { error })` on a string. Like zod, it runs on anything with a `length` even after
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

/** zod's `.min(n)` / `.max(n)` on a number. */
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

/** zod's `.refine(fn, { error, path })`: a custom issue, unless an earlier issue aborted. */
export function refine(test: (value: never) => boolean, message?: string, at?: (string | number)[]): Rule {
  return rule((value, ctx, map, start) => {
    if (abortedSince(ctx, start)) return;
    if (test(value as never)) return;
    raise(ctx, { code: 'custom', input: value, continue: true, message, map, at });
  }, test);
}

function runRules(
  value: unknown,
  ctx: CheckContext,
  rules: readonly Rule[],
  map: ErrorMap | undefined,
  start: number,
) {
  for (const rule of rules) rule(value, ctx, map, start);
}

/** zod's `z.string(map)` with its checks. */
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
 * zod's string formats (`z.guid`, `z.iso.datetime`): a string whose pattern is the schema's own
 * first check, worded by the schema's map.
 */
export function format(re: RegExp, map?: ErrorMap, rules: readonly Rule[] = []): Check<string> {
  return string(map, [pattern(re), ...rules]);
}

/** zod's `z.int(map)` with its checks (a safe integer; bounds after). */
export function int(map?: ErrorMap, rules: readonly Rule[] = []): Check<number> {
  return make(
    (value, ctx) => {
      const start = ctx.issues.length;
      if (typeof value !== 'number' || Number.isNaN(value) || !Number.isFinite(value)) {
        raise(ctx, { code: 'invalid_type', expected: 'number', input: value, continue: false, map });
      } else if (!Number.isInteger(value)) {
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

/** zod's `z.number(map)`. */
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

/** zod's `z.boolean(map)`. */
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

/** zod's `z.null(map)`. */
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

/** zod's `z.never(map)`. */
export function never(map?: ErrorMap): Check<never> {
  return make(
    (value, ctx) => {
      raise(ctx, { code: 'invalid_type', expected: 'never', input: value, continue: false, map });
      return value as never;
    },
    { pure: true, test: () => false },
  );
}

/** zod's `z.unknown()`. */
export const unknown: Check<unknown> = make((value) => value, { pure: true, test: () => true });

/** zod's `z.literal(v, map)` and `z.enum([...], map)`. */
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

// ---- wrappers -------------------------------------------------------------------------------------------

/** zod's `.optional()`. */
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

/** zod's `.nullable()`. */
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

/** zod's `.default(v)`: a missing value becomes `v`, unchecked. */
export function withDefault<Out, In>(inner: Check<Out, In>, fallback: Out): Check<Out, In | undefined> {
  return make((value, ctx) => (value === undefined ? fallback : inner(value, ctx)), {
    pure: false,
    optin: 'defaulted',
    values: inner.values,
  });
}

/** zod's `z.preprocess(fn, inner)`: `fn` first, then `inner` on what it returned. */
export function preprocess<Out, In>(fn: (value: never) => unknown, inner: Check<Out, In>): Check<Out, In> {
  return make((value, ctx) => inner(fn(value as never), ctx), {
    pure: false,
    optin: 'optional',
    optout: inner.optout,
  });
}

/** zod's `z.array(item, map)`. */
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

/** What an object does with keys its shape does not name: keep, drop, or refuse (zod's loose, plain, strict). */
export type UnknownKeys = 'loose' | 'strip' | 'strict';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * zod's `z.looseObject` / `z.object` / `z.strictObject` with `map`, then its refinements. Each
 * property follows zod's handlePropertyResult: a missing optional key stays missing; a missing
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
      // zod's handlePropertyResult, rung by rung.
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
              // zod: a missing key is fine only where the schema is optional (or defaulted).
              if (check.optin !== 'defaulted' || !(t as (value: unknown) => boolean)(undefined)) return false;
            }
          }
          return true;
        }
      : undefined;
  return make(fn, { pure, shape, objectOf: { keys, map }, test });
}

// Only object checks carry a shape: extend and omit are used on nothing else (the generated
// objects), and test/contract/validators.test.ts would see a table built on anything else.
function objectParts(base: Check): {
  shape: Record<string, Check>;
  keys: UnknownKeys;
  map: ErrorMap | undefined;
} {
  return { shape: { ...base.shape }, keys: base.objectOf?.keys ?? 'strip', map: base.objectOf?.map };
}

/** zod's `.extend(shape)`: the same object (unknown-key rule and messages) with properties replaced or added. */
export function extend<Out>(base: Check, shape: Readonly<Record<string, Check>>): Check<Out> {
  const parts = objectParts(base);
  return object<Out>({ ...parts.shape, ...shape }, parts.keys, parts.map);
}

/** zod's `.omit(mask)`: the same object without `omitted` (a loose object then keeps them as unknown keys). */
export function omit<Out>(base: Check, omitted: readonly string[]): Check<Out> {
  const parts = objectParts(base);
  for (const key of omitted) delete parts.shape[key];
  return object<Out>(parts.shape, parts.keys, parts.map);
}

/**
 * zod's `z.discriminatedUnion(key, options, map)`: the option whose `key` literal matches the
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
 * zod's `.superRefine(fn)` as a rule: `fn` reports issues through `add` (code, message, path below
 * the value) unless an earlier issue aborted.
 */
export function superRefine<T>(
  fn: (value: T, add: (issue: { code: string; message: string; path?: (string | number)[] }) => void) => void,
): Rule {
  return rule(
    (value, ctx, _map, start) => {
      if (abortedSince(ctx, start)) return;
      fn(value as T, (issue) =>
        raise(ctx, {
          code: issue.code,
          input: value,
          continue: true,
          message: issue.message,
          at: issue.path,
        }),
      );
    },
    (value: T) => {
      let ok = true;
      fn(value, () => {
        ok = false;
      });
      return ok;
    },
  );
}

/** `base` with more rules run after it (zod's `.refine` / `.superRefine` on a finished schema). */
export function withRules<Out, In>(base: Check<Out, In>, rules: readonly Rule[]): Check<Out, In> {
  return make(
    (value, ctx) => {
      const start = ctx.issues.length;
      const out = base(value, ctx);
      runRules(out, ctx, rules, undefined, start);
      return out;
    },
    {
      pure: base.pure && rules.length === 0,
      optin: base.optin,
      optout: base.optout,
      values: base.values,
      shape: base.shape,
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
