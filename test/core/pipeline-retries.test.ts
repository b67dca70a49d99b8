import { type APIError, InternalServerError, OutcomeUnknownError, RateLimitError } from 'match-venue';
import { describe, expect, it } from 'vitest';
import { json } from '../helpers/scripted-server.js';
import { apiClientOf } from '../../src/client/match-venue.js';

import { client, get, Ok, server, useScriptedServer } from './pipeline-setup.js';

useScriptedServer();

describe('request pipeline', () => {
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
});
