import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { InvalidApiKeyError, isWellFormedApiKey, parseApiKey } from '../../../src/core/api-key.js';
import { MatchVenueError } from '../../../src/core/error.js';

const SECRET = 'sUp3rS3cr3tValue9f8e7d';

describe('parseApiKey', () => {
  it('parses a test key into kind, id and a sandbox hint', () => {
    const parsed = parseApiKey(`TEST_API_KEY:abc123:${SECRET}`);
    expect(parsed.kind).toBe('TEST_API');
    expect(parsed.prefix).toBe('TEST_API_KEY');
    expect(parsed.id).toBe('abc123');
    expect(parsed.environment).toBe('sandbox');
    expect(parsed.redacted).toBe('TEST_API_KEY:abc123:***');
  });

  it('parses a live key with a production hint', () => {
    const parsed = parseApiKey(`LIVE_API_KEY:k1:${SECRET}`);
    expect(parsed.kind).toBe('LIVE_API');
    expect(parsed.environment).toBe('production');
  });

  it('keeps the secret out of inspect, JSON, toString and template strings', () => {
    const parsed = parseApiKey(`TEST_API_KEY:burner:${SECRET}`);
    expect(inspect(parsed, { showHidden: true, depth: 10 })).not.toContain(SECRET);
    expect(JSON.stringify(parsed)).not.toContain(SECRET);
    expect(JSON.parse(JSON.stringify(parsed))).toEqual({
      kind: 'TEST_API',
      prefix: 'TEST_API_KEY',
      id: 'burner',
      environment: 'sandbox',
    });
    expect(String(parsed)).toBe('TEST_API_KEY:burner:***');
    expect(`${parsed}`).not.toContain(SECRET);
    expect(Object.values(parsed).join(' ')).not.toContain(SECRET);
  });

  it.each([
    ['missing', '', 'missing'],
    ['bearer prefix', `Bearer TEST_API_KEY:id:${SECRET}`, 'bearer-prefix'],
    ['trailing newline', `TEST_API_KEY:id:${SECRET}\n`, 'whitespace'],
    ['two parts', `TEST_API_KEY:${SECRET}`, 'part-count'],
    ['bare secret', SECRET, 'part-count'],
    ['four parts', `TEST_API_KEY:id:${SECRET}:x`, 'part-count'],
    ['unknown prefix', `${SECRET}:id:${SECRET}`, 'unknown-prefix'],
    ['lower-case prefix', `test_api_key:id:${SECRET}`, 'unknown-prefix'],
    ['empty id', `TEST_API_KEY::${SECRET}`, 'empty-part'],
    ['empty secret', 'LIVE_API_KEY:id:', 'empty-part'],
    ['inner whitespace', `TEST_API_KEY:id:${SECRET.slice(0, 5)} ${SECRET.slice(5)}`, 'invalid-characters'],
  ] as const)('rejects a malformed key (%s) without echoing the secret', (_name, key, reason) => {
    let thrown: unknown;
    try {
      parseApiKey(key);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidApiKeyError);
    expect(thrown).toBeInstanceOf(MatchVenueError);
    const error = thrown as InvalidApiKeyError;
    expect(error.name).toBe('InvalidApiKeyError');
    expect(error.reason).toBe(reason);
    expect(error.message).toMatch(/^Invalid API key: /);
    for (const fragment of [SECRET, SECRET.slice(0, 5), SECRET.slice(5)]) {
      expect(error.message).not.toContain(fragment);
      expect(inspect(error, { showHidden: true, depth: 10 })).not.toContain(fragment);
      expect(String(error.stack)).not.toContain(fragment);
      expect(JSON.stringify(error)).not.toContain(fragment);
    }
  });

  it('rejects a non-string key', () => {
    expect(() => parseApiKey(undefined)).toThrow(InvalidApiKeyError);
    expect(() => parseApiKey(42)).toThrow(/no key given/);
  });

  it('isWellFormedApiKey answers without throwing', () => {
    expect(isWellFormedApiKey('TEST_API_KEY:burner:sim')).toBe(true);
    expect(isWellFormedApiKey('TEST_API_KEY:burner')).toBe(false);
    expect(isWellFormedApiKey(null)).toBe(false);
  });
});
