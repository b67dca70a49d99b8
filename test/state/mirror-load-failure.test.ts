// When the mirror's code cannot be loaded (a dist/ copied without its chunks), every awaited call
// of the handle account.mirror() returned rejects with ConfigurationError naming the feature, and
// a stream the caller passed in is left open: the mirror never started.
import { ConfigurationError, MatchVenue } from 'match-venue';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../src/state/account-mirror.js', () => {
  throw new Error('chunk account-mirror-X.js not found');
});

const venues: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const v of venues.splice(0)) await v.close();
});

// Nothing listens on port 9: the stream keeps retrying until it is closed.
const venue = () =>
  new MatchVenue({
    apiKey: 'TEST_API_KEY:mirror:load',
    baseUrl: 'http://127.0.0.1:9',
    wsUrl: 'ws://127.0.0.1:9',
    maxRetries: 0,
  });

describe('account.mirror() whose code fails to load', () => {
  it('returns at once, then rejects ready, changes() and waitFor with ConfigurationError', async () => {
    const client = venue();
    const stream = client.stream.connect();
    venues.push(stream);
    const mirror = client.account.mirror({ stream });
    // Before the load settles: an empty view, as before a mirror's first reads.
    expect(mirror.orders()).toEqual([]);
    expect(() => mirror.orders({ status: 'nope' as never })).toThrow(/filter.status/);
    const changes = mirror.changes();
    const ready = await mirror.ready.catch((e: unknown) => e);
    expect(ready).toBeInstanceOf(ConfigurationError);
    expect((ready as Error).message).toMatch(/could not load the code of its account mirror: /);
    await expect(changes.next()).rejects.toBeInstanceOf(ConfigurationError);
    // Asked for after the failure too: it rejects rather than waiting for a start that never comes.
    await expect(mirror.changes().next()).rejects.toBeInstanceOf(ConfigurationError);
    await expect(mirror.waitFor('00000000-0000-4000-8000-000000000000', () => true)).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    await expect(mirror.close()).resolves.toBeUndefined();
    // The caller's stream is the caller's: not closed by a mirror that never started.
    expect(stream.state).not.toBe('closed');
  });

  it('still throws at once for bad options, before anything loads', () => {
    expect(() => venue().account.mirror({ retentionMs: -1 })).toThrow(/retentionMs/);
  });
});
