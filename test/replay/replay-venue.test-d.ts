import { parseCassette } from 'match-venue/simulator';
import { createMockVenue, type MockVenue, type ReplayVenue } from 'match-venue/testing';
import { describe, expectTypeOf, it } from 'vitest';

describe('createMockVenue({ cassette })', () => {
  it('returns a ReplayVenue, which has no simulator controls', async () => {
    const replay = await createMockVenue({ cassette: 'bot.ndjson' });
    expectTypeOf(replay).toEqualTypeOf<ReplayVenue>();
    expectTypeOf(await createMockVenue({ cassette: parseCassette('') })).toEqualTypeOf<ReplayVenue>();
    expectTypeOf(await createMockVenue()).toEqualTypeOf<MockVenue>();
    expectTypeOf(await createMockVenue({ clock: 'manual' })).toEqualTypeOf<MockVenue>();
    // @ts-expect-error the auctions of a replay are the recorded ones
    replay.clearAuction();
    // @ts-expect-error nor has it a simulator
    replay.simulator;
  });

  it('refuses a cassette beside simulator options', () => {
    // @ts-expect-error a replay runs no simulator: its options make no sense there
    void createMockVenue({ cassette: 'bot.ndjson', clock: 'real' });
  });
});
