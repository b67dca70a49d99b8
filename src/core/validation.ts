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
  throw new ValidationError(context, toValidationIssues(result.error));
}

// The id grammar is a fact of the API, shared with the simulator through the contract layer.
export { isUuid } from '../contract/ids.js';
