import { describe, expect, it } from 'vitest';
import { bearerKey, MALFORMED_AUTH_MESSAGE } from '../../../src/simulator/http/auth.js';
import { HttpError } from '../../../src/simulator/http/responses.js';

function refusal(header: string | null): unknown {
  try {
    bearerKey(header);
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
  return 'accepted';
}

const MALFORMED = { status: 401, code: 401, message: MALFORMED_AUTH_MESSAGE };

// Issue 23: well-formed headers are remembered (a Map lookup per request instead of the regex and
// the key grammar); the answers must stay what the grammar gives, on the first read and after.
describe('bearerKey', () => {
  it('gives the key of a well-formed header, the same on every read', () => {
    for (let i = 0; i < 3; i++) {
      expect(bearerKey('Bearer TEST_API_KEY:cache-a:sim')).toBe('TEST_API_KEY:cache-a:sim');
      expect(bearerKey('bearer   LIVE_API_KEY:cache-a:sim  ')).toBe('LIVE_API_KEY:cache-a:sim');
    }
  });

  it('refuses what the grammar refuses, before and after a well-formed header was read', () => {
    const bad = [
      null,
      '',
      'Bearer',
      'Basic TEST_API_KEY:x:sim',
      'Bearer TEST_API_KEY:x',
      'Bearer NOPE:x:sim',
    ];
    for (const header of bad) expect(refusal(header)).toEqual(MALFORMED);
    bearerKey('Bearer TEST_API_KEY:cache-b:sim');
    for (const header of bad) expect(refusal(header)).toEqual(MALFORMED);
    // Close to a remembered header is not the header.
    expect(refusal('Bearer TEST_API_KEY:cache-b:sim extra')).toEqual(MALFORMED);
  });

  it('past the bound of remembered headers, a new header is still read right', () => {
    for (let i = 0; i < 100; i++)
      expect(bearerKey(`Bearer TEST_API_KEY:many-${i}:sim`)).toBe(`TEST_API_KEY:many-${i}:sim`);
    expect(bearerKey('Bearer TEST_API_KEY:after-bound:sim')).toBe('TEST_API_KEY:after-bound:sim');
    expect(refusal('Bearer TEST_API_KEY::sim')).toEqual(MALFORMED);
  });
});
