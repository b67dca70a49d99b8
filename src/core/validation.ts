import { type Check, type CheckIssue, runCheck } from '../validation/index.js';
import type { ValidationIssue } from './error.js';
import { ValidationError } from './error.js';

/** What the pipeline validates with: a generated check (src/generated/validators.ts). */
export type Schema<T> = Check<T, unknown>;

/** A check's issues as ValidationIssues: the dotted path, the rule's message and its kind. */
export function checkIssues(issues: readonly CheckIssue[]): ValidationIssue[] {
  return issues.map((i) => ({ path: i.path.map(String).join('.'), rule: i.message, kind: i.code }));
}

/** `input` checked with `schema`: its output, or the issues of what is wrong with it. */
export function parseWith<T>(
  schema: Schema<T>,
  input: unknown,
): { ok: true; value: T } | { ok: false; issues: ValidationIssue[] } {
  const result = runCheck(schema, input);
  return result.ok ? result : { ok: false, issues: checkIssues(result.issues) };
}

/** Parses `input` with `schema` or throws a ValidationError naming each bad field and rule. */
export function validate<T>(schema: Schema<T>, input: unknown, context: string): T {
  const result = parseWith(schema, input);
  if (result.ok) return result.value;
  throw new ValidationError(
    context,
    result.issues.map((i) => withMoneyHint(i, input)),
  );
}

// Every Money a request takes is a field named `amount` (orders.place, withdrawals.create). A bare
// number or string there, or a number as its own `amount`, is the usual slip: name the helper.
const MONEY_HINT = "build it with usd('1000.00')";

function withMoneyHint(issue: ValidationIssue, input: unknown): ValidationIssue {
  if (issue.kind !== 'invalid_type') return issue;
  const path = issue.path.split('.');
  const isMoneyField = path.at(-1) === 'amount' && path.at(-2) !== 'amount';
  const isMoneyAmount = path.at(-1) === 'amount' && path.at(-2) === 'amount';
  const value = valueAt(input, path);
  if (isMoneyField && (typeof value === 'number' || typeof value === 'string'))
    return { ...issue, rule: `must be a Money object, not a ${typeof value}: ${MONEY_HINT}` };
  if (isMoneyAmount && typeof value === 'number')
    return { ...issue, rule: `must be a decimal string, not a number: ${MONEY_HINT}` };
  return issue;
}

function valueAt(input: unknown, path: readonly string[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

// The id grammar is a fact of the API, shared with the simulator through the contract layer.
export { isUuid } from '../contract/ids.js';
