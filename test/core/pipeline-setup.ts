import { MatchVenue, type MatchVenueOptions } from 'match-venue';
import { afterEach, beforeEach } from 'vitest';
import { recordingSleep, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { apiClientOf } from '../../src/client/match-venue.js';
import * as c from '../../src/validation/index.js';

// Shared by the pipeline-*.test.ts files: one scripted server per test, a client on it whose
// backoff sleeps are recorded instead of waited, and a GET of one small schema.

export const KEY = 'TEST_API_KEY:unit:supersecretvalue';
export const Ok = c.object<{ ok: boolean }>({ ok: c.boolean() }, 'strip');

/** The current test's server (a live binding: reassigned before each test). */
export let server: ScriptedServer;

/** Starts a fresh scripted server before each test of the calling file and closes it after. */
export function useScriptedServer(): void {
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(async () => {
    await server.close();
  });
}

/** Replaces the server with a fresh one, for a test that closed it (so the after-hook has one to close). */
export async function reopenServer(): Promise<void> {
  server = await startScriptedServer();
}

export function client(extra: MatchVenueOptions = {}) {
  const rec = recordingSleep();
  const venue = new MatchVenue({
    apiKey: KEY,
    baseUrl: server.url,
    ...extra,
    retry: { sleep: rec.sleep, random: () => 0.5, ...extra.retry },
  });
  return { venue, delays: rec.delays };
}

export const get = (
  venue: MatchVenue,
  extra: Partial<Parameters<ReturnType<typeof apiClientOf>['request']>[0]> = {},
) => apiClientOf(venue).request({ method: 'GET', path: '/v1/thing', responseSchema: Ok, ...extra });
