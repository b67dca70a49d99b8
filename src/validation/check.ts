/**
 * The core of the validation library the generated checks (src/generated/validators.ts) are built
 * from: what a check is, what an issue is, and how an issue is raised. Client and simulator run the
 * same checks; the simulator turns their issues into error entries (contract/error-details.ts).
 */
import { defaultMessage, type Raised } from './messages.js';

/** One failed rule: where, what kind of rule (`invalid_type`, `too_small`...), and the rule in words. */
export interface CheckIssue {
  path: (string | number)[];
  code: string;
  message: string;
  /** The rule's parameters (`expected`, `minimum`, `values`, `keys`...), for an error entry's `constraints`. */
  constraints: Record<string, unknown>;
  /**
   * `continue`: false for an issue after which the value's own refinements do not run (a
   * wrong type, a missing key); true for one after which they still do (a pattern, a bound).
   */
  continue: boolean;
}

/** The state of one validation: the path walked to the current value and the issues so far. */
export interface CheckContext {
  path: (string | number)[];
  issues: CheckIssue[];
}

/** How a schema treats a missing value in an object (`optin`: may it be missing, or is it defaulted; `optout`: may the output be missing). */
type Optionality = { optin?: 'optional' | 'defaulted' | undefined; optout?: 'optional' | undefined };

/**
 * A validator: returns its output for `value` (meaningful only when it added no issue to `ctx`).
 * `In` is what a caller may pass, `Out` what a valid value becomes; both are only types.
 */
export interface Check<Out = unknown, In = Out> extends Optionality {
  (value: unknown, ctx: CheckContext): Out;
  /** The values a literal or enum accepts (discriminated unions look options up by them). */
  values?: ReadonlySet<unknown> | undefined;
  /** For an object: its properties (a discriminated union finds its options' literals there). */
  shape?: Readonly<Record<string, Check>> | undefined;
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

/** A schema's own message for an issue it raised; undefined defers to the rule's own wording (messages.ts). */
export type ErrorMap = (input: unknown, code: string) => string | undefined;

/** Generated checks' `messages(rule)`: 'is required' when missing, else the rule (or the default wording). */
export function messages(rule?: string): ErrorMap {
  return (input) => (input === undefined ? 'is required' : rule);
}

/** Generated checks' `typeMessage(rule)`: the rule replaces only the wrong-type message. */
export function typeMessage(rule: string): ErrorMap {
  return (input, code) => (input === undefined ? 'is required' : code === 'invalid_type' ? rule : undefined);
}

/** A constant message. */
export function always(message: string): ErrorMap {
  return () => message;
}

export function raise(ctx: CheckContext, raised: Raised): void {
  const message = raised.message ?? raised.map?.(raised.input, raised.code) ?? defaultMessage(raised);
  const path = raised.at ? [...ctx.path, ...raised.at] : ctx.path.slice();
  const constraints = constraintsOf(raised);
  ctx.issues.push({ path, code: raised.code, message, continue: raised.continue, constraints });
}

/** Whether an issue since `start` stops the value's further rules (a wrong type, a missing key). */
export function abortedSince(ctx: CheckContext, start: number): boolean {
  for (let i = start; i < ctx.issues.length; i++) if (!ctx.issues[i]?.continue) return true;
  return false;
}

export function make<Out, In = Out>(
  fn: (value: unknown, ctx: CheckContext) => Out,
  props: Partial<Pick<Check, 'optin' | 'optout' | 'values' | 'shape' | 'test'>> & {
    pure: boolean;
  },
): Check<Out, In> {
  return Object.assign(fn, props) as Check<Out, In>;
}

function constraintsOf(raised: Raised): Record<string, unknown> {
  const constraints: Record<string, unknown> = {};
  if (raised.expected !== undefined) constraints.expected = raised.expected;
  if (raised.bound !== undefined)
    constraints[raised.code === 'too_big' ? 'maximum' : 'minimum'] = raised.bound;
  if (raised.origin !== undefined) constraints.origin = raised.origin;
  if (raised.values !== undefined) constraints.values = raised.values;
  if (raised.options !== undefined) constraints.values = raised.options;
  if (raised.keys !== undefined) constraints.keys = raised.keys;
  if (raised.format !== undefined) constraints.format = raised.format;
  if (raised.pattern !== undefined) constraints.pattern = raised.pattern;
  return constraints;
}

/** What an object does with keys its shape does not name: keep, drop, or refuse (additionalProperties absent, in a request, false). */
export type UnknownKeys = 'loose' | 'strip' | 'strict';
