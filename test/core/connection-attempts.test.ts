import { createServer } from 'node:net';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  MatchVenue,
  type MatchVenueOptions,
  OutcomeUnknownError,
  usd,
} from 'match-venue';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  drop,
  hang,
  recordingSleep,
  type ScriptedServer,
  startScriptedServer,
} from '../helpers/scripted-server.js';
import { apiClientOf } from '../../src/client/match-venue.js';
import * as c from '../../src/validation/index.js';

// A timeout or connection error is the last of several attempts: it says how many there were, so a
// reader of the message knows the client already retried.
const KEY = 'TEST_API_KEY:unit:supersecretvalue';
const Ok = c.object<{ ok: boolean }>({ ok: c.boolean() }, 'strip');

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

function client(extra: MatchVenueOptions = {}, baseUrl = server.url) {
  return new MatchVenue({
    apiKey: KEY,
    baseUrl,
    ...extra,
    retry: { sleep: recordingSleep().sleep, random: () => 0.5 },
  });
}

const get = (venue: MatchVenue) =>
  apiClientOf(venue).request({ method: 'GET', path: '/v1/thing', responseSchema: Ok });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail('resolved'),
    (e: unknown) => e,
  );

describe('the attempts of a timeout or connection error', () => {
  it('a timeout after every retry: attempts 3, and the message says so', async () => {
    server.script(hang, hang, hang);
    const err = await failure(get(client({ timeout: 40, maxRetries: 2 })));
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect(err).toMatchObject({ kind: 'MV_TIMEOUT', attempts: 3 });
    expect((err as Error).message).toBe('GET /v1/thing timed out after 40ms (3 attempts were made).');
    expect(server.seen).toHaveLength(3);
  });

  it('a dropped connection on each of 2 attempts', async () => {
    server.script(drop, drop);
    const err = await failure(get(client({ maxRetries: 1 })));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect(err).toMatchObject({ kind: 'MV_CONNECTION', attempts: 2 });
    expect((err as Error).message).toMatch(
      /^Connection error on GET \/v1\/thing: .*\(2 attempts were made\)\.$/,
    );
  });

  it('a refused connection without retries: 1 attempt', async () => {
    // A port that was just free: nothing listens on it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const err = await failure(get(client({ maxRetries: 0 }, `http://127.0.0.1:${port}`)));
    expect(err).toMatchObject({ kind: 'MV_CONNECTION', attempts: 1 });
    expect((err as Error).message).toMatch(/\(1 attempt was made\)\.$/);
  });

  it('the cause of an OutcomeUnknownError carries them too', async () => {
    server.script(drop, drop);
    const err = await failure(
      client({ maxRetries: 1 }).withdrawals.create({
        amount: usd('100'),
        fiatAccountId: '20000000-0000-4000-8000-00000000f001',
      }),
    );
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err).toMatchObject({ attempts: 2, cause: { kind: 'MV_CONNECTION', attempts: 2 } });
  });
});
