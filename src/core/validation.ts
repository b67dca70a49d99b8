import type { z } from 'zod';
import type { ValidationIssue } from './error.js';
import { ValidationError } from './error.js';

type ZodIssue = z.core.$ZodIssue;

function pathText(base: readonly PropertyKey[], extra: readonly PropertyKey[] = []): string {
  return [...base, ...extra].map((p) => String(p)).join('.');
}

function flatten(issue: ZodIssue, prefix: readonly PropertyKey[] = []): ValidationIssue[] {
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    // Report the branch that came closest (fewest complaints) rather than every branch.
    const best = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? [];
    if (best.length > 0) return best.flatMap((inner) => flatten(inner, [...prefix, ...issue.path]));
  }
  return [{ path: pathText(prefix, issue.path), rule: issue.message, kind: issue.code }];
}

/** zod issues as ValidationIssues: dotted field path, the rule's message, the issue code. */
export function toValidationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.flatMap((issue) => flatten(issue));
}

/** Parses `input` with `schema` or throws a ValidationError naming each bad field and rule. */
export function validate<T>(schema: z.ZodType<T>, input: unknown, context: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(context, toValidationIssues(result.error));
}

// The id grammar is a fact of the API, shared with the simulator through the contract layer.
export { isUuid } from '../contract/ids.js';
