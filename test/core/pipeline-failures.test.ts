import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  BadRequestError,
  ErrorCode,
  isApiError,
  MatchVenue,
  NotFoundError,
} from 'match-venue';
import { describe, expect, it } from 'vitest';
import { drip, drop, hang, json } from '../helpers/scripted-server.js';

import { client, get, KEY, reopenServer, server, useScriptedServer } from './pipeline-setup.js';

useScriptedServer();

describe('request pipeline', () => {
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

  it('describes a 404 carrying the generic code 2 by its status, not by the 400 list of causes', async () => {
    server.script(json(404, { code: 2, message: 'Not Found' }));
    const err = await get(client().venue).catch((e: unknown) => e);
    if (!isApiError(err, ErrorCode.InvalidRequest)) throw new Error('expected code 2');
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe(
      '404 InvalidRequest (code 2): Not found: no such route, or no such resource for this account — Not Found [request req-404]',
    );
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
    await reopenServer();
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
});
