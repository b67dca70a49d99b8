import type { z } from 'zod';
import type { CheckIssue } from '../validation/index.js';

/**
 * The error-detail mapping of the contract: how a failed schema check reads as entries of the
 * extended error body (`{code: 2, message, errors: [...]}`, docs/ERRORS.md). The simulator answers
 * with these entries; the SDK's ValidationIssue (path, rule, kind) is the same entry read before
 * sending (`location`, `message`, `error`), so both sides name a field and its rule alike.
 */

/** One entry of an extended error body's `errors`. */
export interface ErrorDetail {
  /** What kind of rule failed (`invalid_type`, `too_small`, `custom`...). */
  error: string;
  /** The rule, in words (e.g. "must be at least 100 and a multiple of 100"). */
  message: string;
  /** Dotted path of the field (`amount.amount`); the root name when the whole input is wrong. */
  location?: string;
  /** The offending value as text, clipped (see {@link showValue}). */
  invalidValue?: string;
  /** The rule's parameters (`minimum`, `values`, `keys`...). */
  constraints?: Record<string, unknown>;
}

export interface IssueDetailOptions {
  /** `location` of an issue about the whole input (`body`, `query`). Default ''. */
  root?: string;
  /** The input that was checked: gives each entry its `invalidValue`. Without it, none has one. */
  input?: unknown;
  /** At most this many entries (the first ones). Default: all. */
  limit?: number;
  /**
   * For a union no branch of which matched, report the issues of the branch that came closest
   * (fewest issues) instead of the one `invalid_union` issue. Default false.
   */
  closestUnionBranch?: boolean;
}

/**
 * An issue of a generated check (src/validation/), or of a zod schema (the simulator's own control,
 * market and snapshot configs, which are not part of the API document).
 */
type Issue = z.core.$ZodIssue | CheckIssue;

const CONSTRAINT_KEYS = [
  'expected',
  'minimum',
  'maximum',
  'inclusive',
  'values',
  'format',
  'pattern',
  'divisor',
  'keys',
  'origin',
] as const;

/** Longest piece of input an entry echoes by default. */
export const ECHO_MAX = 200;

export function clip(text: string, max = ECHO_MAX): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * A value as an entry echoes it: clipped, and safe on hostile input (JSON nested deeper than the
 * stack throws RangeError from JSON.stringify and from String() alike). Undefined stays undefined.
 */
export function showValue(value: unknown, max = ECHO_MAX): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return clip(value, max);
  try {
    return clip(JSON.stringify(value) ?? String(value), max);
  } catch {
    return Array.isArray(value) ? '[array nested too deep to show]' : '[object nested too deep to show]';
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function constraintsOf(issue: Issue): Record<string, unknown> {
  if ('constraints' in issue) return { ...issue.constraints };
  const constraints: Record<string, unknown> = {};
  for (const key of CONSTRAINT_KEYS) {
    const v = (issue as unknown as Record<string, unknown>)[key];
    if (v !== undefined && typeof v !== 'function') constraints[key] = typeof v === 'bigint' ? String(v) : v;
  }
  return constraints;
}

function collect(
  issue: Issue,
  prefix: readonly PropertyKey[],
  options: IssueDetailOptions,
  out: ErrorDetail[],
): void {
  const path = prefix.length === 0 ? issue.path : [...prefix, ...issue.path];
  if (
    options.closestUnionBranch &&
    issue.code === 'invalid_union' &&
    'errors' in issue &&
    issue.errors.length > 0
  ) {
    let best = issue.errors[0] ?? [];
    for (const branch of issue.errors) if (branch.length < best.length) best = branch;
    if (best.length > 0) {
      for (const inner of best) collect(inner, path, options, out);
      return;
    }
  }
  const detail: ErrorDetail = {
    error: issue.code,
    message: issue.message,
    location: path.length ? path.map(String).join('.') : (options.root ?? ''),
    constraints: constraintsOf(issue),
  };
  if ('input' in options) {
    const invalidValue = showValue(valueAt(options.input, path));
    if (invalidValue !== undefined) detail.invalidValue = invalidValue;
  }
  out.push(detail);
}

/** The error entries of failed checks: one per issue (see {@link IssueDetailOptions}). */
export function issueDetails(issues: readonly Issue[], options: IssueDetailOptions = {}): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  // Entries past the limit would be dropped anyway; a huge input can fail thousands of times.
  for (const issue of issues) {
    if (out.length >= limit) break;
    collect(issue, [], options, out);
  }
  return out.length > limit ? out.slice(0, limit) : out;
}
