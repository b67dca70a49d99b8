import { MatchVenue } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';

const sim = createSimulator();
const handler = (req: Request) => sim.handle(req);
afterAll(() => sim.close());

describe('venue.verifyApiKey()', () => {
  it('is true for a key the platform knows and false for a well-formed unknown one (401 156007)', async () => {
    expect(await new MatchVenue({ apiKey: SEEDED.minter.apiKey, handler }).verifyApiKey()).toBe(true);
    expect(await new MatchVenue({ apiKey: 'TEST_API_KEY:nobody:nothing', handler }).verifyApiKey()).toBe(
      false,
    );
  });

  it('is an APIPromise: withResponse() gives the response the answer came from (200, or the 401)', async () => {
    const known = await new MatchVenue({ apiKey: SEEDED.minter.apiKey, handler })
      .verifyApiKey()
      .withResponse();
    expect(known.data).toBe(true);
    expect(known.response.status).toBe(200);
    expect(known.response.requestId).toMatch(/\S/);
    const unknown = new MatchVenue({ apiKey: 'TEST_API_KEY:nobody:nothing', handler });
    const refused = await unknown.configuration.verifyApiKey().withResponse();
    expect(refused.data).toBe(false);
    expect(refused.response.status).toBe(401);
    const raw = await unknown.verifyApiKey().asResponse();
    expect(raw.status).toBe(401);
    expect(((await raw.json()) as { code: number }).code).toBe(156007);
  });

  it('throws what says nothing about the key (a 503), after the retries it is allowed', async () => {
    sim.setFaults({ errorRate: 1 });
    try {
      const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, handler, maxRetries: 0 });
      await expect(venue.verifyApiKey()).rejects.toMatchObject({ status: 503 });
    } finally {
      sim.setFaults({});
    }
  });
});
