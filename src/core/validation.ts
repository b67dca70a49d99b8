import type { z } from 'zod';
import { issueDetails } from '../contract/error-details.js';
import type { ValidationIssue } from './error.js';
import { ValidationError } from './error.js';

const SDK_DETAILS = { closestUnionBranch: true } as const;

/**
 * zod issues as ValidationIssues: the contract's error entries (contract/error-details.ts) read as
 * dotted field path (`location`), the rule's message (`message`) and the issue code (`error`). A
 * failed union reports the branch that came closest rather than every branch.
 */
export function toValidationIssues(error: z.ZodError): ValidationIssue[] {
  return issueDetails(error.issues, SDK_DETAILS).map((d) => ({
    path: d.location ?? '',
    rule: d.message,
    kind: d.error,
  }));
}

/** Parses `input` with `schema` or throws a ValidationError naming each bad field and rule. */
export function validate<T>(schema: z.ZodType<T>, input: unknown, context: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(
    context,
    toValidationIssues(result.error).map((i) => withMoneyHint(i, input)),
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
