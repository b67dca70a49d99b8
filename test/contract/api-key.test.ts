import { describe, expect, it } from 'vitest';
import {
  API_KEY_PREFIX_PATTERN,
  API_KEY_PREFIXES,
  DEFAULT_MOCK_API_KEY,
  isWellFormedApiKey,
  readApiKey,
  SEEDED_API_KEYS,
} from '../../src/contract/api-key.js';

const SECRET = 's3cr3t-Value-123';

describe('API-key grammar (contract)', () => {
  it('reads the kind, prefix, id and environment of a key, never its secret', () => {
    const reading = readApiKey(`TEST_API_KEY:abc:${SECRET}`);
    expect(reading).toEqual({
      ok: true,
      kind: 'TEST_API',
      prefix: 'TEST_API_KEY',
      id: 'abc',
      environment: 'sandbox',
    });
    expect(JSON.stringify(reading)).not.toContain(SECRET);
    expect(readApiKey(`LIVE_API_KEY:k1:${SECRET}`)).toMatchObject({ ok: true, environment: 'production' });
  });

  it.each([
    ['missing', undefined],
    ['bearer-prefix', `Bearer TEST_API_KEY:a:${SECRET}`],
    ['whitespace', ` TEST_API_KEY:a:${SECRET}`],
    ['part-count', `TEST_API_KEY:${SECRET}`],
    ['unknown-prefix', `${SECRET}:a:b`],
    ['empty-part', `TEST_API_KEY::${SECRET}`],
    ['invalid-characters', `TEST_API_KEY:a:${SECRET}\u0001`],
  ] as const)('names the fault (%s) without echoing the key', (reason, key) => {
    const reading = readApiKey(key);
    expect(reading).toMatchObject({ ok: false, reason });
    expect(JSON.stringify(reading)).not.toContain(SECRET);
  });

  it('gives the seeded keys (and mock mode its default) in the grammar', () => {
    for (const key of Object.values(SEEDED_API_KEYS)) expect(isWellFormedApiKey(key), key).toBe(true);
    expect(DEFAULT_MOCK_API_KEY).toBe(SEEDED_API_KEYS.burner);
  });

  it('finds every prefix, and only them, with the prefix pattern', () => {
    const pattern = new RegExp(`^(?:${API_KEY_PREFIX_PATTERN})$`);
    for (const prefix of Object.values(API_KEY_PREFIXES)) expect(pattern.test(prefix)).toBe(true);
    expect(pattern.test('SOME_API_KEY')).toBe(false);
  });
});
