// Spans and metrics of REST calls, with a real OpenTelemetry SDK registered (in-memory exporters):
// a success, a retried 503, a timeout, an OutcomeUnknownError, trace context propagation, and no
// secret in any attribute or event.
import { APIConnectionTimeoutError, MatchVenue, OutcomeUnknownError, usd } from 'match-venue';
import { createSimulator, type RunningSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hang, json, type ScriptedServer, startScriptedServer } from '../../helpers/scripted-server.js';
import { type OtelRig, parentOf, spanText, startOtel } from './otel-rig.js';

const KEY = 'TEST_API_KEY:otel:verysecretpart';
const noWait = { sleep: async () => {} };
// SpanKind and SpanStatusCode of @opentelemetry/api, by value.
const INTERNAL = 0;
const CLIENT = 2;
const ERROR = 2;

let otel: OtelRig;
let server: ScriptedServer;
beforeAll(() => {
  otel = startOtel();
});
afterAll(async () => {
  await otel.stop();
});
beforeEach(async () => {
  otel.reset();
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

const byName = (name: string) => otel.spans().filter((s) => s.name === name);
const only = (name: string) => {
  const found = byName(name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};

describe('against the simulator', () => {
  let sim: Simulator;
  let running: RunningSimulator;
  beforeAll(async () => {
    sim = createSimulator();
    running = await sim.listen();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('a success: a call span with one HTTP client span under it, semconv and venue attributes', async () => {
    const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: running.url });
    const placed = await venue.orders.place({
      orderType: 'BURN',
      amount: usd('1000'),
      feeBps: '5',
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    await venue.orders.retrieve(placed.orderId);

    const call = only('match_venue orders.place');
    const attempt = only('POST /v1/match/orders');
    expect(call.kind).toBe(INTERNAL);
    expect(attempt.kind).toBe(CLIENT);
    expect(parentOf(attempt)).toBe(call.spanContext().spanId);
    expect(attempt.spanContext().traceId).toBe(call.spanContext().traceId);
    const port = Number(new URL(running.url).port);
    expect(attempt.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.full': `${running.url}/v1/match/orders`,
      'url.template': '/v1/match/orders',
      'http.response.status_code': 202,
      'match_venue.idempotency_key': placed.orderId,
      'match_venue.outcome': 'success',
    });
    expect(attempt.attributes['match_venue.request_id']).toMatch(/\S/);
    expect(attempt.attributes['http.request.resend_count']).toBeUndefined();
    expect(attempt.attributes['error.type']).toBeUndefined();
    expect(call.attributes).toMatchObject({
      'match_venue.operation': 'placeOrder',
      'match_venue.idempotency_key': placed.orderId,
      'match_venue.outcome': 'success',
      'match_venue.attempts': 1,
    });
    expect(call.attributes['match_venue.client_request_id']).toBe(
      attempt.attributes['match_venue.client_request_id'],
    );

    const read = only('GET /v1/match/orders/{id}');
    expect(read.attributes['url.full']).toBe(`${running.url}/v1/match/orders/${placed.orderId}`);
    expect(parentOf(read)).toBe(only('match_venue orders.retrieve').spanContext().spanId);

    const duration = await otel.metric('http.client.request.duration');
    expect(duration.unit).toBe('s');
    expect(duration.points.map((p) => p.attributes)).toContainEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.template': '/v1/match/orders',
      'http.response.status_code': 202,
    });
  });

  it('puts no API key, bearer credential or ticket in any attribute or event', async () => {
    const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: running.url });
    const { ticket } = await venue.stream.ticket();
    const secret = SEEDED.burner.apiKey.split(':')[2]!;
    const text = otel.spans().map(spanText).join('\n');
    expect(text).toContain('match_venue stream.ticket');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(ticket);
    expect(text).not.toMatch(/Bearer/i);
  });
});

describe('against a scripted server', () => {
  it('a retried 503: two client spans, the second with http.request.resend_count 1', async () => {
    server.script(json(503, { code: -1, message: 'busy' }), json(200, { data: {} }));
    const venue = new MatchVenue({
      apiKey: KEY,
      baseUrl: server.url,
      retry: noWait,
      validateResponses: false,
    });
    await venue.account.retrieve();

    const call = only('match_venue account.retrieve');
    const attempts = byName('GET /v1/match/account').sort(
      (a, b) =>
        Number((a.attributes['http.request.resend_count'] as number) ?? 0) -
        Number((b.attributes['http.request.resend_count'] as number) ?? 0),
    );
    expect(attempts).toHaveLength(2);
    const [first, second] = attempts as [(typeof attempts)[0], (typeof attempts)[0]];
    expect(first.attributes).toMatchObject({
      'http.response.status_code': 503,
      'error.type': '503',
      'match_venue.request_id': 'req-503',
      'match_venue.outcome': 'error',
      'match_venue.ambiguous': true,
    });
    expect(first.attributes['http.request.resend_count']).toBeUndefined();
    expect(first.status.code).toBe(ERROR);
    expect(second.attributes).toMatchObject({
      'http.request.resend_count': 1,
      'http.response.status_code': 200,
    });
    for (const a of attempts) expect(parentOf(a)).toBe(call.spanContext().spanId);
    expect(call.attributes).toMatchObject({ 'match_venue.attempts': 2, 'match_venue.outcome': 'success' });
    expect(call.events.map((e) => e.name)).toEqual(['retry']);
    // Both attempts carried the call's one request id, numbered.
    expect(server.seen.map((r) => r.headers['x-client-attempt'])).toEqual(['1', '2']);
    expect(new Set(server.seen.map((r) => r.headers['x-client-request-id']))).toEqual(
      new Set([call.attributes['match_venue.client_request_id']]),
    );
  });

  it('a timeout: the client span has error.type MV_TIMEOUT, no status, and an unknown outcome', async () => {
    server.script(hang);
    // The deadline runs from the call, and the server is in this process: a stalled event loop runs
    // an expired timer before the server reads the request, so the deadline is 1 s rather than the
    // 100 ms of the other tests, and the request is awaited on the server (below), not assumed seen.
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: server.url, timeout: 1_000, maxRetries: 0 });
    const err = await venue.account.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);

    const attempt = only('GET /v1/match/account');
    expect(attempt.attributes['http.response.status_code']).toBeUndefined();
    expect(attempt.attributes).toMatchObject({
      'error.type': 'MV_TIMEOUT',
      'match_venue.outcome': 'unknown',
    });
    expect(attempt.status.code).toBe(ERROR);
    expect(attempt.events.map((e) => e.attributes?.['exception.type'])).toEqual(['MV_TIMEOUT']);
    const call = only('match_venue account.retrieve');
    expect(call.attributes).toMatchObject({ 'error.type': 'MV_TIMEOUT', 'match_venue.outcome': 'error' });
    // The error names the id the server saw, though no answer came.
    const id = (err as APIConnectionTimeoutError).clientRequestId;
    const [seen] = await server.arrived(1);
    expect(id).toBe(seen?.headers['x-client-request-id']);
    expect(call.attributes['match_venue.client_request_id']).toBe(id);
  });

  it('an OutcomeUnknownError: the call span says outcome unknown, with its idempotency key', async () => {
    server.script(hang, hang);
    const venue = new MatchVenue({
      apiKey: KEY,
      baseUrl: server.url,
      timeout: 100,
      maxRetries: 1,
      retry: noWait,
    });
    const key = '5e1d0c3a-8f61-4c2b-9a47-00000000c0de';
    const err = await venue.orders
      .place({
        idempotencyKey: key,
        orderType: 'BURN',
        amount: usd('1000'),
        feeBps: '5',
        postFillAction: 'cancel',
        sourceWalletId: 'wallet-1',
        fiatAccountId: '20000000-0000-4000-8000-0000000000bb',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);

    const call = only('match_venue orders.place');
    expect(call.attributes).toMatchObject({
      'match_venue.outcome': 'unknown',
      'error.type': 'MV_OUTCOME_UNKNOWN',
      'match_venue.idempotency_key': key,
      'match_venue.attempts': 2,
    });
    expect(call.status.code).toBe(ERROR);
    const attempts = byName('POST /v1/match/orders');
    expect(attempts.map((a) => a.attributes['match_venue.outcome'])).toEqual(['unknown', 'unknown']);
    expect((err as OutcomeUnknownError).clientRequestId).toBe(
      call.attributes['match_venue.client_request_id'],
    );
    expect(spanText(call)).not.toContain('verysecretpart');
  });

  it('sends traceparent (of the client span) only when propagateTraceContext is set', async () => {
    server.script(json(200, { data: {} }), json(200, { data: {} }));
    const quiet = new MatchVenue({ apiKey: KEY, baseUrl: server.url, validateResponses: false });
    await quiet.account.retrieve();
    expect(server.seen[0]?.headers.traceparent).toBeUndefined();

    otel.reset();
    const venue = new MatchVenue({
      apiKey: KEY,
      baseUrl: server.url,
      validateResponses: false,
      propagateTraceContext: true,
    });
    await venue.account.retrieve();
    const attempt = only('GET /v1/match/account');
    const { traceId, spanId } = attempt.spanContext();
    expect(server.seen[1]?.headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);
  });
});
