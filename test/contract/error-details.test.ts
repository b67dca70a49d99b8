import { describe, expect, it } from 'vitest';
import { issueDetails, showValue } from '../../src/contract/error-details.js';
import { checkIssues } from '../../src/core/validation.js';
import { CancelOrderRequest, ListOrdersQuery, PlaceOrderRequest } from '../../src/generated/validators.js';
import { z } from 'zod';
import { type Check, type CheckIssue, runCheck } from '../../src/validation/index.js';

const KEY_V4 = '3b241101-e2bb-4255-8caf-4136c566a962';

function issues(check: Check, input: unknown): { issues: CheckIssue[] } {
  const result = runCheck(check, input);
  expect(result.ok).toBe(false);
  return { issues: result.ok ? [] : result.issues };
}

/** A zod schema's issues: the simulator's own configs are zod, and read by the same mapping. */
function zodIssues(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return result.error?.issues ?? [];
}

describe('issueDetails: check issues as extended error entries (contract)', () => {
  it('names the field, the rule, its kind, its parameters and the value', () => {
    const input = { auctionId: 1.5, orderId: 'nope' };
    expect(issueDetails(issues(CancelOrderRequest, input).issues, { root: 'body', input })).toEqual([
      {
        error: 'invalid_type',
        message: 'must be an integer, not the number 1.5',
        location: 'auctionId',
        constraints: { expected: 'int' },
        invalidValue: '1.5',
      },
      {
        error: 'invalid_format',
        message: 'must be a UUID',
        location: 'orderId',
        constraints: {
          format: 'uuid',
          pattern: '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$',
        },
        invalidValue: 'nope',
      },
    ]);
  });

  it('gives the root name to an issue about the whole input, and no value when none was given', () => {
    const details = issueDetails(issues(CancelOrderRequest, 'x').issues, { root: 'body' });
    expect(details).toEqual([
      {
        error: 'invalid_type',
        message: 'must be an object, not a string',
        location: 'body',
        constraints: { expected: 'object' },
      },
    ]);
    expect(issueDetails(issues(CancelOrderRequest, 'x').issues)[0]?.location).toBe('');
  });

  it('stops at the limit, and reads the closest branch of a failed union only when asked', () => {
    const bad = { page: 0, pageSize: 0, orderId: 'x' };
    expect(issueDetails(issues(ListOrdersQuery, bad).issues, { limit: 2 })).toHaveLength(2);
    const union = z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.number() })]);
    const failed = zodIssues(union, { a: 1 });
    expect(issueDetails(failed).map((d) => d.error)).toEqual(['invalid_union']);
    expect(issueDetails(failed, { closestUnionBranch: true }).map((d) => `${d.location} ${d.error}`)).toEqual(
      ['a invalid_type'],
    );
  });

  it('clips what it echoes and survives values nested too deep to print', () => {
    expect(showValue('x'.repeat(500))).toHaveLength(201);
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(showValue(deep)).toBe('[array nested too deep to show]');
    expect(showValue(undefined)).toBeUndefined();
  });

  it('is what the SDK reports as ValidationIssues: location -> path, message -> rule, error -> kind', () => {
    const input = { idempotencyKey: KEY_V4, orderType: 'MINT', amount: { amount: '150', currency: 'USD' } };
    const error = issues(PlaceOrderRequest, input);
    expect(checkIssues(error.issues)).toEqual(
      issueDetails(error.issues, { closestUnionBranch: true }).map((d) => ({
        path: d.location,
        rule: d.message,
        kind: d.error,
      })),
    );
    expect(checkIssues(error.issues)).toContainEqual({
      path: 'amount.amount',
      rule: 'must be at least 100 and a multiple of 100',
      kind: 'custom',
    });
  });
});
