import { MatchVenueError } from 'match-venue';
import { path } from '../../src/core/path.js';
import { describe, expect, it } from 'vitest';

describe('path tag', () => {
  it('encodes each value as one segment', () => {
    expect(path`/v1/match/orders/${'abc-123'}`).toBe('/v1/match/orders/abc-123');
    expect(path`/v1/match/orders/${'a/b?c#d'}`).toBe('/v1/match/orders/a%2Fb%3Fc%23d');
    expect(path`/v1/x/${'a b'}/y/${7}`).toBe('/v1/x/a%20b/y/7');
  });

  it('refuses dot segments and empty values', () => {
    expect(() => path`/v1/match/orders/${'..'}`).toThrow(MatchVenueError);
    expect(() => path`/v1/match/orders/${'.'}`).toThrow(/'\.' or '\.\.' segment/);
    expect(() => path`/v1/match/orders/${''}`).toThrow(/empty/);
    expect(path`/v1/match/orders/${'a..b'}`).toBe('/v1/match/orders/a..b');
    // A dot segment written in the template itself is refused too; '%2e' in a value is escaped.
    expect(() => path`/v1/match/orders/${'a'}/..`).toThrow(/'\.' or '\.\.' segment/);
    expect(path`/v1/match/orders/${'%2e%2e'}`).toBe('/v1/match/orders/%252e%252e');
  });
});
