import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  BadRequestError,
  ErrorCode,
  InternalServerError,
  isApiError,
  MatchVenue,
  type MatchVenueOptions,
  NotFoundError,
  OutcomeUnknownError,
  RateLimitError,
  ResponseValidationError,
} from 'match-venue';
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  drip,
  drop,
  hang,
  json,
  recordingSleep,
  type ScriptedServer,
  startScriptedServer,
} from '../helpers/scripted-server.js';
import { apiClientOf } from '../../src/client/match-venue.js';
import * as c from '../../src/validation/index.js';

const KEY = 'TEST_API_KEY:unit:supersecretvalue';
const Ok = c.object<{ ok: boolean }>({ ok: c.boolean() }, 'strip');

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

function client(extra: MatchVenueOptions = {}) {
  const rec = recordingSleep();
  const venue = new MatchVenue({
    apiKey: KEY,
    baseUrl: server.url,
    ...extra,
    retry: { sleep: rec.sleep, random: () => 0.5, ...extra.retry },
  });
  return { venue, delays: rec.delays };
}

const get = (
  venue: MatchVenue,
  extra: Partial<Parameters<ReturnType<typeof apiClientOf>['request']>[0]> = {},
) => apiClientOf(venue).request({ method: 'GET', path: '/v1/thing', responseSchema: Ok, ...extra });

describe('request pipeline', () => {
  it('unwraps data and exposes status, headers and request id', async () => {
    server.script(json(200, { data: { ok: true } }), json(202, { data: { ok: false } }));
    const { venue } = client();
    await expect(get(venue)).resolves.toEqual({ ok: true });
    const { data, response } = await get(venue).withResponse();
    expect(data).toEqual({ ok: false });
    expect(response.status).toBe(202);
    expect(response.requestId).toBe('req-202');
    expect(response.headers['content-type']).toBe('application/json');
    expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.seen[0]?.headers['user-agent']).toMatch(/^match-venue-node\//);
  });

  it('APIPromise is a real Promise: Promise.all, instanceof, lazy parse', async () => {
    server.script(json(200, { data: { ok: true } }), json(200, { data: { ok: false } }));
    const { venue } = client();
    const a = get(venue);
    const b = get(venue);
    expect(a).toBeInstanceOf(Promise);
    await expect(Promise.all([a, b])).resolves.toEqual([{ ok: true }, { ok: false }]);
  });

  it('asResponse gives the unparsed response', async () => {
    server.script(json(200, { data: { ok: true }, extra: 1 }));
    const res = await get(client().venue).asResponse();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { ok: true }, extra: 1 });
  });

  it('sends query values and JSON bodies', async () => {
    server.script(json(200, { data: { ok: true } }));
    await apiClientOf(client().venue).request({
      method: 'POST',
      path: '/v1/thing',
      query: { a: 1, b: 'x y', c: undefined },
      body: { hello: 'world' },
      responseSchema: Ok,
    });
    expect(server.seen[0]?.url).toBe('/v1/thing?a=1&b=x+y');
    expect(server.seen[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.seen[0]?.body ?? '')).toEqual({ hello: 'world' });
  });

  it('retries a 503 and then succeeds, with jittered exponential backoff', async () => {
    server.script(json(503, { code: -1, message: 'busy' }), json(503, {}), json(200, { data: { ok: true } }));
    const { venue, delays } = client();
    await expect(get(venue)).resolves.toEqual({ ok: true });
    expect(server.seen).toHaveLength(3);
    // random() = 0.5: half of 500ms, then half of 1000ms.
    expect(delays).toEqual([250, 500]);
  });

  it('backoff doubles up to maxDelayMs, with full jitter', async () => {
    server.script(
      json(503, {}),
      json(503, {}),
      json(503, {}),
      json(503, {}),
      json(200, { data: { ok: true } }),
    );
    const { venue, delays } = client({ maxRetries: 4, retry: { maxDelayMs: 1500, random: () => 0.999 } });
    await expect(get(venue)).resolves.toEqual({ ok: true });
    expect(delays).toEqual([499, 999, 1498, 1498]);
    const low = client({ maxRetries: 1, retry: { random: () => 0 } });
    server.script(json(503, {}), json(200, { data: { ok: true } }));
    await get(low.venue);
    expect(low.delays).toEqual([0]);
  });

  it('retries a 408 and then succeeds', async () => {
    server.script(json(408, { code: -1, message: 'timeout' }), json(200, { data: { ok: true } }));
    const { venue, delays } = client();
    await expect(get(venue)).resolves.toEqual({ ok: true });
    expect(server.seen).toHaveLength(2);
    expect(delays).toEqual([250]);
  });

  it('a create call whose every attempt got 408/5xx is OutcomeUnknownError with its key and body', async () => {
    server.script(json(408, {}), json(502, {}), json(503, {}));
    const { venue } = client();
    const key = '6f1c2b1e-3c1d-4a8e-9f00-0000000000aa';
    const err = await apiClientOf(venue)
      .request({
        method: 'POST',
        path: '/v1/thing',
        body: { idempotencyKey: key },
        idempotencyKey: key,
        operation: 'placeOrder',
        responseSchema: Ok,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).idempotencyKey).toBe(key);
    expect((err as OutcomeUnknownError).orderId).toBe(key);
    expect((err as OutcomeUnknownError).attempts).toBe(3);
    expect((err as OutcomeUnknownError).request).toEqual({ idempotencyKey: key });
    expect((err as Error).cause).toBeInstanceOf(InternalServerError);
    expect(server.seen.map((r) => JSON.parse(r.body).idempotencyKey)).toEqual([key, key, key]);
  });

  it('honours Retry-After in seconds on 429', async () => {
    server.script(
      json(429, { code: -1, message: 'slow down' }, { 'retry-after': '3' }),
      json(200, { data: { ok: true } }),
    );
    const { venue, delays } = client();
    await expect(get(venue)).resolves.toEqual({ ok: true });
    expect(delays).toEqual([3000]);
  });

  it('honours Retry-After as an HTTP date, measured on the injected clock', async () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    server.script(
      json(429, {}, { 'retry-after': new Date(now + 7000).toUTCString() }),
      json(200, { data: { ok: true } }),
    );
    const { venue, delays } = client({ retry: { now: () => now } });
    await get(venue);
    expect(delays).toEqual([7000]);
  });

  it('caps Retry-After at maxRetryAfterMs', async () => {
    server.script(json(429, {}, { 'retry-after': '3600' }), json(200, { data: { ok: true } }));
    const { venue, delays } = client({ retry: { maxRetryAfterMs: 5000 }, totalTimeout: 600_000 });
    await get(venue);
    expect(delays).toEqual([5000]);
  });

  it('gives up when the Retry-After wait would exceed the total budget', async () => {
    server.script(
      json(429, { code: -1, message: 'later' }, { 'retry-after': '30' }),
      json(200, { data: { ok: true } }),
    );
    const { venue, delays } = client({ totalTimeout: 10_000 });
    const err = await get(venue).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(delays).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('stops after maxRetries and throws the last error', async () => {
    server.script(
      json(500, {}),
      json(502, {}),
      json(504, { code: -1, message: 'gateway' }),
      json(200, { data: { ok: true } }),
    );
    const { venue } = client();
    const err = await get(venue).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as APIError).status).toBe(504);
    expect(server.seen).toHaveLength(3);
  });

  it('respects a per-call maxRetries of 0', async () => {
    server.script(json(503, {}), json(200, { data: { ok: true } }));
    const { venue } = client();
    await expect(get(venue, { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.seen).toHaveLength(1);
  });

  it('does not retry 4xx errors and maps them to typed errors with catalog metadata', async () => {
    server.script(json(400, { code: 136001, message: 'locked' }));
    const { venue } = client();
    const err = await get(venue).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(server.seen).toHaveLength(1);
    if (!isApiError(err, ErrorCode.AuctionLocked)) throw new Error('expected AuctionLocked');
    expect(err.status).toBe(400);
    expect(err.venueCode).toBe(136001);
    expect(err.requestId).toBe('req-400');
    expect(err.info?.name).toBe('AuctionLocked');
    expect(err.message).toContain('AuctionLocked (code 136001)');
    expect(err.message).toContain(err.info?.meaning ?? 'missing meaning');
    expect(err.headers['x-request-id']).toBe('req-400');
  });

  it('keeps the extended errors array', async () => {
    const detail = {
      error: 'min',
      message: 'amount must be at least 100',
      location: 'amount.amount',
      invalidValue: '5',
      constraints: { min: '100' },
    };
    server.script(json(400, { code: 2, message: 'Invalid request', errors: [detail] }));
    const err = await get(client().venue).catch((e: unknown) => e);
    if (!isApiError(err, ErrorCode.InvalidRequest)) throw new Error('expected code 2');
    expect(err.errors).toEqual([detail]);
    expect(err.message).toContain('amount.amount: amount must be at least 100');
  });

  it('maps statuses to subclasses', async () => {
    server.script(json(404, { code: 156003, message: 'nope' }), json(418, { message: 'teapot' }));
    const { venue } = client();
    await expect(get(venue)).rejects.toBeInstanceOf(NotFoundError);
    const other = await get(venue).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(APIError);
    expect((other as APIError).venueCode).toBeUndefined();
    expect((other as APIError).message).toContain('418');
  });

  it('retries a dropped connection and reports a connection error when it keeps failing', async () => {
    server.script(drop, drop, drop);
    const { venue, delays } = client();
    await expect(get(venue)).rejects.toBeInstanceOf(APIConnectionError);
    expect(server.seen).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('reports a refused connection as APIConnectionError', async () => {
    const url = server.url;
    await server.close();
    const venue = new MatchVenue({
      apiKey: KEY,
      baseUrl: url,
      maxRetries: 1,
      retry: { sleep: async () => {} },
    });
    const err = await get(venue).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).not.toBeInstanceOf(APIConnectionTimeoutError);
    server = await startScriptedServer();
  });

  it('times out an attempt, retries, then fails with APIConnectionTimeoutError', async () => {
    server.script(hang, hang);
    const { venue, delays } = client({ timeout: 50, maxRetries: 1 });
    const err = await get(venue).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect((err as Error).message).toMatch(/timed out after 50ms/);
    expect(server.seen).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('the attempt limit covers the body: a body that trickles in forever times out', async () => {
    server.script(drip, drip);
    const { venue, delays } = client({ timeout: 60, maxRetries: 1 });
    const err = await get(venue).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect((err as Error).message).toMatch(/timed out after 60ms/);
    expect(server.seen).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('enforces the total budget across attempts', async () => {
    server.script(hang, hang, hang);
    const { venue } = client({ timeout: 10_000, totalTimeout: 80, maxRetries: 5 });
    const err = await get(venue).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect((err as Error).message).toMatch(/total time budget/);
    expect(server.seen).toHaveLength(1);
  });

  it('aborts in flight with the caller signal, without retrying', async () => {
    server.script(hang, hang);
    const { venue } = client();
    const controller = new AbortController();
    const pending = get(venue, { signal: controller.signal });
    // Abort once the request is in flight (it reached the server), however slow the machine is.
    while (server.seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.seen).toHaveLength(1);
  });

  it('aborts during a backoff wait', async () => {
    server.script(json(503, {}), json(200, { data: { ok: true } }));
    const controller = new AbortController();
    const venue = new MatchVenue({
      apiKey: KEY,
      baseUrl: server.url,
      retry: {
        sleep: (_ms, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () => reject(signal.reason));
            controller.abort();
          }),
      },
    });
    await expect(get(venue, { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.seen).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { venue } = client();
    await expect(get(venue, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.seen).toHaveLength(0);
  });

  it('rejects a success body that does not match the schema', async () => {
    server.script(json(200, { data: { ok: 'yes' } }));
    const err = await get(client().venue).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect((err as ResponseValidationError).issues[0]?.path).toBe('ok');
  });

  it('validateResponses: false trusts the body as sent', async () => {
    server.script(json(200, { data: { ok: 'yes' } }));
    const { venue } = client({ validateResponses: false });
    await expect(get(venue)).resolves.toEqual({ ok: 'yes' });
  });

  it('sends through the undici dispatcher given (proxies, custom pools, MockAgent)', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    // Nothing listens on port 9: only the dispatcher can answer.
    agent
      .get('http://127.0.0.1:9')
      .intercept({ path: '/v1/thing', method: 'GET', headers: { authorization: `Bearer ${KEY}` } })
      .reply(200, { data: { ok: true } }, { headers: { 'x-request-id': 'req-mock' } });
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9', dispatcher: agent });
    const { data, response } = await get(venue).withResponse();
    expect(data).toEqual({ ok: true });
    expect(response.requestId).toBe('req-mock');
    agent.assertNoPendingInterceptors();
    await agent.close();
  });

  it('uses a fetch function when given one', async () => {
    server.script(json(200, { data: { ok: true } }));
    const calls: string[] = [];
    const venue = new MatchVenue({
      apiKey: KEY,
      baseUrl: server.url,
      fetch: (input, init) => {
        calls.push(`${init.method} ${input}`);
        return fetch(input, init);
      },
    });
    await expect(get(venue)).resolves.toEqual({ ok: true });
    expect(calls).toEqual([`GET ${server.url}/v1/thing`]);
  });
});
