import { describe, expect, it } from 'vitest';
import type { ErrorDetail } from '../../../src/contract/error-details.js';
import { ERROR_BODY_MAX_BYTES, errorBodyText } from '../../../src/simulator/http/responses.js';

describe('errorBodyText', () => {
  it('shows an entry value that is not text instead of throwing (no 500 from the renderer)', () => {
    const hostile = {
      error: 'invalid_type',
      message: 42,
      location: ['amount', 'currency'],
      invalidValue: { nested: { deeper: [1, 2, 3] } },
    } as unknown as ErrorDetail;
    const body = JSON.parse(errorBodyText(2, 'Invalid request', [hostile]));
    expect(body).toEqual({
      code: 2,
      message: 'Invalid request',
      errors: [
        {
          error: 'invalid_type',
          message: '42',
          location: '["amount","currency"]',
          invalidValue: '{"nested":{"deeper":[1,2,3]}}',
        },
      ],
    });
  });

  it('keeps a body of huge entries under the byte bound', () => {
    const big = 'x'.repeat(100_000);
    const entries: ErrorDetail[] = Array.from({ length: 50 }, () => ({
      error: big,
      message: big,
      invalidValue: big,
    }));
    const text = errorBodyText(2, big, entries);
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(ERROR_BODY_MAX_BYTES);
    expect(JSON.parse(text).errors).toHaveLength(20);
  });
});
