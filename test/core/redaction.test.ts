import dc from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import {
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  DIAGNOSTICS_CHANNELS,
  InternalServerError,
  type Logger,
  MatchVenue,
  OutcomeUnknownError,
} from 'match-venue';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { apiClientOf } from '../../src/client/match-venue.js';
import { redact, redactText } from '../../src/core/logger.js';
import * as c from '../../src/validation/index.js';

const KEY = 'TEST_API_KEY:redact:verysecretpart';
const TICKET = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJidXJuZXIifQ.c2lnbmF0dXJl';

function capture(): { lines: string[]; logger: Logger } {
  const lines: string[] = [];
  const push = (message: string, meta?: Record<string, unknown>) => {
    lines.push(`${message} ${meta ? JSON.stringify(meta) : ''}`);
  };
  return { lines, logger: { debug: push, info: push, warn: push, error: push } };
}

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

describe('secrets never leak', () => {
  it('util.inspect and JSON.stringify of the client show no key', () => {
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url });
    expect(inspect(venue, { depth: 10, showHidden: true })).not.toContain('verysecretpart');
    expect(inspect(venue.orders, { depth: 10 })).not.toContain('verysecretpart');
    expect(JSON.stringify(venue)).not.toContain('verysecretpart');
    expect(JSON.stringify({ nested: venue.orders })).not.toContain('verysecretpart');
    expect(String(venue)).not.toContain('verysecretpart');
  });

  it('is silent by default, on every console method', async () => {
    const writes: unknown[] = [];
    const methods = ['debug', 'info', 'log', 'warn', 'error'] as const;
    const originals = methods.map((m) => console[m]);
    for (const m of methods) console[m] = (...args: unknown[]) => void writes.push([m, ...args]);
    try {
      // Exhausted retries are logged as warnings and 4xx at debug when a level is set; by default nothing.
      server.script(json(500, {}), json(500, {}), json(500, {}), json(400, { code: 2, message: 'bad' }));
      const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url, retry: { sleep: async () => {} } });
      await apiClientOf(venue)
        .request({ method: 'GET', path: '/x', responseSchema: c.unknown })
        .catch(() => undefined);
      await apiClientOf(venue)
        .request({ method: 'GET', path: '/x', responseSchema: c.unknown })
        .catch(() => undefined);
      apiClientOf(venue).logger.error('direct');
    } finally {
      methods.forEach((m, i) => {
        console[m] = originals[i] as (typeof console)[typeof m];
      });
    }
    expect(server.seen).toHaveLength(4);
    expect(writes).toEqual([]);
  });

  it('debug logs of requests, retries, errors and tickets contain no key or ticket', async () => {
    const { lines, logger } = capture();
    server.script(
      json(503, { code: -1, message: `echo ${KEY}` }),
      json(200, { data: { ticket: TICKET, expiresAt: '2030-01-01T00:00:00Z' } }),
      json(401, { code: 156007, message: `unknown key ${KEY}` }),
    );
    const venue = new MatchVenue({
      apiKey: KEY,
      baseUrl: server.url,
      logger,
      logLevel: 'debug',
      retry: { sleep: async () => {} },
    });
    const ticket = await venue.stream.ticket();
    expect(ticket.ticket).toBe(TICKET);
    const err = await venue.account.retrieve().catch((e: unknown) => e);
    apiClientOf(venue).logger.info(`connecting with protocols service-match.v1, ticket.${TICKET}`, {
      ticket: TICKET,
      headers: { Authorization: `Bearer ${KEY}` },
    });
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const all = lines.join('\n');
    expect(all).not.toContain('verysecretpart');
    expect(all).not.toContain(TICKET);
    expect(all).toContain('ticket.[redacted]');
    expect(inspect(err, { depth: 10 })).not.toContain(TICKET);
    expect(inspect(err, { depth: 10 })).not.toContain('verysecretpart');
    expect((err as Error).message).toContain('unknown key [redacted]');
  });

  it('hook events (bodies included) and diagnostics_channel payloads contain no key or ticket', async () => {
    const events: unknown[] = [];
    const record = (message: unknown) => void events.push(message);
    const names = Object.values(DIAGNOSTICS_CHANNELS).filter((n) => n !== DIAGNOSTICS_CHANNELS.call);
    for (const name of names) dc.subscribe(name, record);
    const call = dc.tracingChannel(DIAGNOSTICS_CHANNELS.call);
    const handlers = { start: record, end: record, asyncStart: record, asyncEnd: record, error: record };
    call.subscribe(handlers);
    try {
      server.script(
        json(503, { code: -1, message: `echo ${KEY}` }, { 'x-echo': KEY }),
        json(200, { data: { ticket: TICKET, expiresAt: '2030-01-01T00:00:00Z' } }),
        json(401, { code: 156007, message: `unknown key ${KEY}` }),
      );
      const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url, retry: { sleep: async () => {} } });
      for (const event of ['request', 'response', 'retry'] as const) {
        venue.on(event, record, { body: true });
        venue.on(event, record);
      }
      expect((await venue.stream.ticket()).ticket).toBe(TICKET);
      const err = await venue.account.retrieve().catch((e: unknown) => e);
      expect(events.length).toBeGreaterThanOrEqual(12);
      // The error objects in `error` payloads render redacted (their own inspect and toJSON).
      const all = [JSON.stringify(events), inspect(events, { depth: 10 }), JSON.stringify(err)].join('\n');
      expect(all).toContain('authorization');
      expect(all).not.toContain('verysecretpart');
      expect(all).not.toContain(TICKET);
    } finally {
      for (const name of names) dc.unsubscribe(name, record);
      call.unsubscribe(handlers);
    }
  });

  it('MATCH_VENUE_LOG_LEVEL sets the level', async () => {
    const { lines, logger } = capture();
    server.script(json(200, { data: {} }));
    process.env.MATCH_VENUE_LOG_LEVEL = 'debug';
    try {
      const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url, logger });
      await apiClientOf(venue).request({ method: 'GET', path: '/x', responseSchema: c.unknown });
      process.env.MATCH_VENUE_LOG_LEVEL = 'loud';
      expect(() => new MatchVenue({ apiKey: KEY, baseUrl: server.url })).toThrow(/MATCH_VENUE_LOG_LEVEL/);
    } finally {
      delete process.env.MATCH_VENUE_LOG_LEVEL;
    }
    expect(lines.join('\n')).toContain('GET /x -> 200');
    expect(lines.join('\n')).not.toContain('verysecretpart');
  });

  it('the debug level filter works', async () => {
    const { lines, logger } = capture();
    server.script(json(200, { data: {} }));
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url, logger, logLevel: 'warn' });
    await apiClientOf(venue).request({ method: 'GET', path: '/x', responseSchema: c.unknown });
    expect(lines).toEqual([]);
  });

  it('redact() scrubs keys, bearer values, ticket fields, ticket subprotocols and JWTs', () => {
    const out = JSON.stringify(
      redact({
        authorization: `Bearer ${KEY}`,
        nested: { ticket: TICKET, note: `key ${KEY} and ${TICKET}` },
        protocols: ['service-match.v1', `ticket.${TICKET}`],
      }),
    );
    expect(out).not.toContain('verysecretpart');
    expect(out).not.toContain(TICKET);
    expect(out).toContain('service-match.v1');
    expect(redactText(`Authorization: Bearer abc.def`)).toBe('Authorization: Bearer [redacted]');
    expect(redactText('LIVE_API_KEY:id:secret')).toBe('LIVE_API_KEY:[redacted]');
  });
});

describe('error objects never show the key', () => {
  const hidden = (err: unknown) => {
    const rendered = [
      inspect(err, { depth: Number.POSITIVE_INFINITY }),
      inspect(err, { depth: Number.POSITIVE_INFINITY, showHidden: true, colors: true }),
      JSON.stringify(err),
      String(err),
    ];
    for (const text of rendered) expect(text).not.toContain('verysecretpart');
  };

  it('a key echoed in response headers is redacted in APIError.headers, inspect and JSON', async () => {
    server.script(
      json(
        401,
        { code: 156007, message: 'unknown key' },
        {
          'x-echo-key': KEY,
          'x-echo-secret': 'verysecretpart',
          'x-debug': `saw Authorization: Bearer ${KEY}; part verysecretpart`,
          'set-cookie': 'session=abc123; HttpOnly',
          'www-authenticate': 'Basic realm="venue"',
        },
      ),
    );
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url });
    const err = await venue.account.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    const { headers } = err as AuthenticationError;
    expect(headers['x-echo-key']).toBe('[redacted]');
    expect(headers['x-echo-secret']).toBe('[redacted]');
    expect(headers['x-debug']).toBe('saw Authorization: Bearer [redacted]; part [redacted]');
    expect(headers['set-cookie']).toBe('[redacted]');
    // Headers that carry no credential are kept as sent.
    expect(headers['www-authenticate']).toBe('Basic realm="venue"');
    expect(headers['x-request-id']).toBe('req-401');
    expect(headers['content-type']).toBe('application/json');
    hidden(err);
  });

  it('a key whose secret part holds , ; and quotes is removed exactly from headers, body and message', async () => {
    const oddKey = `TEST_API_KEY:odd:very"secret,part;x'`;
    server.script((_req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain', 'x-echo': oddKey });
      res.end(`bad key ${oddKey}`);
    });
    const venue = new MatchVenue({ apiKey: oddKey, baseUrl: server.url });
    const err = await venue.account.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    const apiError = err as BadRequestError;
    expect(apiError.headers['x-echo']).toBe('[redacted]');
    expect(apiError.serverMessage).toBe('bad key [redacted]');
    expect(apiError.body).toBe('bad key [redacted]');
    for (const text of [
      inspect(err, { depth: Number.POSITIVE_INFINITY }),
      JSON.stringify(err),
      String(err),
    ]) {
      expect(text).not.toContain('secret,part');
    }
  });

  it('through a cause chain: OutcomeUnknownError over 5xx answers echoing the key', async () => {
    const echo = json(
      503,
      { code: -1, message: `echo ${KEY}`, errors: [{ invalidValue: KEY }] },
      { 'x-echo': KEY },
    );
    server.script(echo, echo, echo);
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url, retry: { sleep: async () => {} } });
    const key = '6f1c2b1e-3c1d-4a8e-9f00-0000000000ab';
    const err = await apiClientOf(venue)
      .request({
        method: 'POST',
        path: '/v1/thing',
        body: { idempotencyKey: key },
        idempotencyKey: key,
        operation: 'placeOrder',
        responseSchema: c.unknown,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    const cause = (err as OutcomeUnknownError).cause as InternalServerError;
    expect(cause).toBeInstanceOf(InternalServerError);
    expect(cause.headers['x-echo']).toBe('[redacted]');
    expect(cause.errors).toEqual([{ invalidValue: '[redacted]' }]);
    hidden(err);
    hidden(cause);
  });

  it('JSON.stringify redacts fields the SDK did not get from a response (a request body quoting the key)', async () => {
    server.script(json(503, {}), json(503, {}), json(503, {}));
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url, retry: { sleep: async () => {} } });
    const key = '6f1c2b1e-3c1d-4a8e-9f00-0000000000ac';
    const body = { idempotencyKey: key, memo: `pasted ${KEY} by mistake`, ticket: TICKET };
    const err = await apiClientOf(venue)
      .request({
        method: 'POST',
        path: '/v1/thing',
        body,
        idempotencyKey: key,
        operation: 'placeOrder',
        responseSchema: c.unknown,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    // The error keeps what the caller sent; only its renderings are redacted.
    expect((err as OutcomeUnknownError).request).toEqual(body);
    const serialized = JSON.parse(JSON.stringify(err));
    expect(serialized.request).toEqual({
      idempotencyKey: key,
      memo: 'pasted TEST_API_KEY:[redacted] by mistake',
      ticket: '[redacted]',
    });
    expect(serialized).toMatchObject({ name: 'OutcomeUnknownError', operation: 'placeOrder', attempts: 3 });
    hidden(err);
    expect(inspect(err, { depth: Number.POSITIVE_INFINITY })).not.toContain(TICKET);
  });

  it('a foreign error from a custom fetch carrying the key is redacted in message, inspect and JSON', async () => {
    const venue = new MatchVenue({
      apiKey: KEY,
      baseUrl: server.url,
      maxRetries: 0,
      fetch: async (_url, init) => {
        const authorization = (init.headers as Record<string, string>).authorization;
        throw Object.assign(new Error(`proxy refused ${authorization}`), { config: { authorization } });
      },
    });
    const err = await venue.account.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toContain('proxy refused Bearer [redacted]');
    hidden(err);
  });
});
