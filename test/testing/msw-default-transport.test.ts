import diagnostics from 'node:diagnostics_channel';
import { format } from 'node:util';
import { MatchVenue } from 'match-venue';
import { createHandlers } from 'match-venue/msw';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { setupServer } from 'msw/node';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// A downstream suite as its README would write it: setupServer with 'error' for anything unhandled,
// and clients made with no transport option at all.
const BASE = 'https://venue.msw.example';
const sim = createSimulator();
const server = setupServer(...createHandlers(sim, { baseUrl: BASE }));

// Every TCP connection node makes, and every request undici starts, whoever starts them.
let sockets = 0;
let undiciRequests = 0;
const onSocket = () => {
  sockets++;
};
const onUndici = () => {
  undiciRequests++;
};
beforeAll(() => {
  diagnostics.subscribe('net.client.socket', onSocket);
  diagnostics.subscribe('undici:request:create', onUndici);
});
afterEach(() => {
  sockets = 0;
  undiciRequests = 0;
});
afterAll(async () => {
  diagnostics.unsubscribe('net.client.socket', onSocket);
  diagnostics.unsubscribe('undici:request:create', onUndici);
  await sim.close();
});

describe('a client with no transport option under msw', () => {
  it('goes through msw: no socket is opened and undici is never asked', async () => {
    const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: BASE });
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const account = await venue.account.retrieve();
      expect(account.accountId).toBe(SEEDED.burner.accountId);
      expect(sockets).toBe(0);
      expect(undiciRequests).toBe(0);
    } finally {
      server.close();
    }
  });

  it('an unhandled URL fails inside msw instead of reaching the network', async () => {
    const venue = new MatchVenue({
      apiKey: SEEDED.burner.apiKey,
      baseUrl: 'https://unhandled.msw.example',
      maxRetries: 0,
    });
    // 'error' makes msw print its complaint on console.error and fail the request; the complaint is
    // the expected outcome here, so it is captured and checked rather than left on the run's output.
    const complaints = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      await expect(venue.account.retrieve()).rejects.toMatchObject({ kind: 'MV_CONNECTION' });
      expect(sockets).toBe(0);
      expect(undiciRequests).toBe(0);
      expect(complaints.mock.calls.map((args) => format(...args))).toEqual([
        expect.stringMatching(
          /^\[MSW\] Error: intercepted a request without a matching request handler:\s+• GET https:\/\/unhandled\.msw\.example\/v1\/match\/account\n/,
        ),
      ]);
    } finally {
      server.close();
      complaints.mockRestore();
    }
  });

  it('uses undici again once msw stops, and always when a dispatcher is given', async () => {
    const listening = await sim.listen();
    const dispatcher = new Agent();
    try {
      const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: listening.url });
      await venue.account.retrieve();
      expect(undiciRequests).toBe(1);

      server.listen({ onUnhandledRequest: 'error' });
      const pinned = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: listening.url, dispatcher });
      await pinned.account.retrieve();
      expect(undiciRequests).toBe(2);
    } finally {
      server.close();
      await dispatcher.close();
      await listening.close();
    }
  });
});
