// The loader of a feature's chunk (src/core/lazy-chunk.ts): one load shared by every caller, a
// failure as ConfigurationError carrying its cause, and another try on the next call.
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/core/error.js';
import { lazyChunk } from '../../src/core/lazy-chunk.js';

describe('lazyChunk', () => {
  it('loads once for every caller, and again only after a failed load', async () => {
    let loads = 0;
    const cause = new Error('Cannot find module ./thing-ABC.js\n    at somewhere');
    const load = lazyChunk('thing', async () => {
      loads++;
      if (loads === 1) throw cause;
      return { loads };
    });
    const failed = await load().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ConfigurationError);
    expect((failed as ConfigurationError).kind).toBe('MV_INVALID_CONFIG');
    // The cause's first line only, and what to do about it.
    expect((failed as Error).message).toBe(
      "match-venue could not load the code of its thing: Cannot find module ./thing-ABC.js. Keep the package's " +
        'dist/ folder whole (every chunk beside the entry), or bundle it with its chunks.',
    );
    expect((failed as Error).cause).toBe(cause);
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(loads).toBe(2);
  });
});
