// Correlation, venue.on hooks and the diagnostics channels, with no OpenTelemetry registered: a real
// diagnostics_channel subscriber, a scripted server, and the simulator's request log.
import dc from 'node:diagnostics_channel';
import {
  BadRequestError,
  ConfigurationError,
  DIAGNOSTICS_CHANNELS,
  InternalServerError,
  type Logger,
  MatchVenue,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
} from 'match-venue';
import { createSimulator, type RequestLogEntry, SEEDED } from 'match-venue/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Output } from '../../../src/simulator/cli/log-format.js';
import { json, type ScriptedServer, startScriptedServer } from '../../helpers/scripted-server.js';

const KEY = 'TEST_API_KEY:hooks:verysecretpart';
const noWait = { sleep: async () => {} };

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

function lines(): { logged: string[]; logger: Logger } {
  const logged: string[] = [];
  const push = (message: string, meta?: Record<string, unknown>) =>
    void logged.push(`${message} ${JSON.stringify(meta ?? {})}`);
  return { logged, logger: { debug: push, info: push, warn: push, error: push } };
}

describe('correlation', () => {
  it('sends one request id on every attempt with its number; the error carries both', async () => {
    server.script(json(503, {}), json(400, { code: 2, message: 'bad' }));
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url, retry: noWait, maxRetries: 1 });
    const err = await venue.account.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    const ids = server.seen.map((r) => r.headers['x-client-request-id']);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(server.seen.map((r) => r.headers['x-client-attempt'])).toEqual(['1', '2']);
    expect((err as BadRequestError).clientRequestId).toBe(ids[0]);
    expect((err as BadRequestError).attempts).toBe(2);
    // A new call, a new id.
    server.script(json(200, { data: {} }));
    await venue.configuration.retrieve().catch(() => undefined);
    expect(server.seen[2]?.headers['x-client-request-id']).not.toBe(ids[0]);
  });

  it('uses the requestIdHeader option, and refuses one that is not a header name', async () => {
    server.script(json(200, { data: {} }));
    const venue = new MatchVenue({
      apiKey: KEY,
      baseUrl: server.url,
      requestIdHeader: 'X-Trace-Me',
      validateResponses: false,
    });
    await venue.account.retrieve();
    expect(server.seen[0]?.headers['x-trace-me']).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.seen[0]?.headers['x-client-request-id']).toBeUndefined();
    expect(() => new MatchVenue({ apiKey: KEY, baseUrl: server.url, requestIdHeader: 'bad header' })).toThrow(
      ConfigurationError,
    );
  });

  it('the simulator logs the id and attempt on its request line', async () => {
    const sim = createSimulator();
    const entries: RequestLogEntry[] = [];
    const running = await sim.listen({ onRequest: (e) => entries.push(e) });
    try {
      const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: running.url });
      const err = await venue.orders
        .retrieve('00000000-0000-4000-8000-000000000000')
        .catch((e: unknown) => e);
      const id = (err as { clientRequestId?: string }).clientRequestId;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(entries.at(-1)).toMatchObject({ status: 404, requestId: id, attempt: 1 });
      const written: string[] = [];
      new Output({ json: false, colour: false, now: () => 0, write: (l) => written.push(l) }).request(
        entries.at(-1)!,
      );
      expect(written[0]).toContain(`req ${id} #1`);
    } finally {
      await sim.close();
    }
  });
});

describe('venue.on', () => {
  it('request, response and retry events of a retried 503, redacted, without bodies unless asked', async () => {
    server.script(
      json(503, { code: -1, message: 'busy' }, { 'retry-after-ms': '7' }),
      json(200, { data: {} }),
    );
    const venue = new MatchVenue({
      apiKey: KEY,
      baseUrl: server.url,
      retry: noWait,
      validateResponses: false,
    });
    const requests: RequestEvent[] = [];
    const responses: ResponseEvent[] = [];
    const withBodies: ResponseEvent[] = [];
    const retries: RetryEvent[] = [];
    venue.on('request', (e) => requests.push(e));
    venue.on('response', (e) => responses.push(e));
    venue.on('response', (e) => withBodies.push(e), { body: true });
    venue.on('retry', (e) => retries.push(e));
    await venue.account.retrieve();

    const id = server.seen[0]?.headers['x-client-request-id'];
    expect(requests.map((e) => [e.name, e.attempt, e.requestId, e.method])).toEqual([
      ['account.retrieve', 1, id, 'GET'],
      ['account.retrieve', 2, id, 'GET'],
    ]);
    expect(requests[0]?.url).toBe(`${server.url}/v1/match/account`);
    expect(requests[0]?.headers.authorization).toBe('[redacted]');
    expect(requests[0]?.body).toBeUndefined();
    expect(responses.map((e) => [e.attempt, e.status, e.serverRequestId, e.error?.kind])).toEqual([
      [1, 503, 'req-503', 'MV_API_SERVER_ERROR'],
      [2, 200, 'req-200', undefined],
    ]);
    expect(responses[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(responses[0]?.body).toBeUndefined();
    expect(withBodies[1]?.body).toBe('{"data":{}}');
    expect(retries).toMatchObject([{ attempt: 1, nextAttempt: 2, delayMs: 7, reason: { status: 503 } }]);
    expect(JSON.stringify([requests, responses, withBodies, retries])).not.toContain('verysecretpart');
  });

  it('a listener that throws, or rejects, never breaks the call; the logger hears of it', async () => {
    server.script(json(200, { data: {} }));
    const { logged, logger } = lines();
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url, logger, validateResponses: false });
    venue.on('request', () => {
      throw new Error('listener bug');
    });
    venue.on('response', async () => {
      throw new Error('async listener bug');
    });
    await expect(venue.account.retrieve()).resolves.toEqual({});
    await new Promise((r) => setImmediate(r));
    expect(logged.filter((l) => l.includes('listener threw'))).toHaveLength(2);
  });

  it('the returned function removes the listener', async () => {
    server.script(json(200, { data: {} }), json(200, { data: {} }));
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url, validateResponses: false });
    const seen: number[] = [];
    const off = venue.on('response', (e) => seen.push(e.status ?? 0));
    await venue.account.retrieve();
    off();
    await venue.account.retrieve();
    expect(seen).toEqual([200]);
  });
});

describe('diagnostics_channel', () => {
  it('match_venue:call publishes start, end, asyncStart, asyncEnd, and error on a failure', async () => {
    const seen: [string, Record<string, unknown>][] = [];
    const record = (kind: string) => (message: unknown) => void seen.push([kind, { ...(message as object) }]);
    const handlers = {
      start: record('start'),
      end: record('end'),
      asyncStart: record('asyncStart'),
      asyncEnd: record('asyncEnd'),
      error: record('error'),
    };
    const call = dc.tracingChannel(DIAGNOSTICS_CHANNELS.call);
    call.subscribe(handlers);
    try {
      server.script(json(200, { data: {} }), json(500, {}));
      const venue = new MatchVenue({
        apiKey: KEY,
        baseUrl: server.url,
        maxRetries: 0,
        validateResponses: false,
      });
      await venue.account.retrieve();
      expect(seen.map(([k]) => k)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
      expect(seen[0]?.[1]).toMatchObject({
        name: 'account.retrieve',
        operation: 'getAccount',
        method: 'GET',
      });
      expect(seen[3]?.[1]).toMatchObject({
        result: { status: 200, serverRequestId: 'req-200' },
        attempts: 1,
      });

      seen.length = 0;
      const err = await venue.account.retrieve().catch((e: unknown) => e);
      expect(seen.map(([k]) => k)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
      expect(seen[2]?.[1].error).toBe(err);
      expect(err).toBeInstanceOf(InternalServerError);
      expect(JSON.stringify(seen.map(([, m]) => m))).not.toContain('verysecretpart');
    } finally {
      call.unsubscribe(handlers);
    }
  });

  it('match_venue:request, :response and :retry carry the hook payloads, without bodies', async () => {
    const got: [string, unknown][] = [];
    const on = (name: string) => (message: unknown) => void got.push([name, message]);
    const subs = ['request', 'response', 'retry'].map(
      (n) => [DIAGNOSTICS_CHANNELS[n as 'request'], on(n)] as const,
    );
    for (const [name, fn] of subs) dc.subscribe(name, fn);
    try {
      server.script(json(503, {}), json(200, { data: {} }));
      const venue = new MatchVenue({
        apiKey: KEY,
        baseUrl: server.url,
        retry: noWait,
        validateResponses: false,
      });
      await venue.account.retrieve();
      expect(got.map(([n]) => n)).toEqual(['request', 'response', 'retry', 'request', 'response']);
      expect(got[1]?.[1]).toMatchObject({ status: 503, attempt: 1 });
      expect(got.some(([, m]) => 'body' in (m as object))).toBe(false);
      expect(JSON.stringify(got)).not.toContain('verysecretpart');
    } finally {
      for (const [name, fn] of subs) dc.unsubscribe(name, fn);
    }
  });
});
