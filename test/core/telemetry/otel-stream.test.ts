// The stream's telemetry with a real OpenTelemetry SDK registered and a diagnostics_channel
// subscriber: a reconnect and a resync (the venue cannot replay what the outage missed), the
// mirror's load and re-read, and waitForOutcome, each its own span; the stream metrics.
import dc from 'node:diagnostics_channel';
import { DIAGNOSTICS_CHANNELS, WaitTimeoutError } from 'match-venue';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientOf, mintParams, outage, type Rig, startRig, until } from '../../state/helpers.js';
import { type OtelRig, parentOf, spanText, startOtel } from './otel-rig.js';

let otel: OtelRig;
let rig: Rig;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(() => {
  otel = startOtel();
});
afterAll(async () => {
  await otel.stop();
});
beforeEach(async () => {
  otel.reset();
  rig = await startRig(1);
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await rig.close();
});

const named = (name: string) => otel.spans().filter((s) => s.name === name);

describe('stream telemetry', () => {
  it('a reconnect and a resync: spans, metrics and stream channels', async () => {
    const states: unknown[] = [];
    const resyncs: unknown[] = [];
    const onState = (m: unknown) => void states.push(m);
    const onResync = (m: unknown) => void resyncs.push(m);
    dc.subscribe(DIAGNOSTICS_CHANNELS.streamState, onState);
    dc.subscribe(DIAGNOSTICS_CHANNELS.streamResync, onResync);
    cleanups.push(async () => {
      dc.unsubscribe(DIAGNOSTICS_CHANNELS.streamState, onState);
      dc.unsubscribe(DIAGNOSTICS_CHANNELS.streamResync, onResync);
    });

    const minter = clientOf(rig, 'minter');
    const stream = minter.stream.connect({ reconnect: { initialDelayMs: 1, maxDelayMs: 5 } });
    cleanups.push(() => stream.close());
    const mirror = minter.account.mirror({ stream });
    cleanups.push(() => mirror.close());
    await mirror.ready;

    const load = named('match_venue mirror.load');
    expect(load).toHaveLength(1);
    const loadChildren = otel.spans().filter((s) => parentOf(s) === load[0]?.spanContext().spanId);
    expect(new Set(loadChildren.map((s) => s.name))).toEqual(
      new Set(['match_venue orders.list', 'match_venue account.retrieve']),
    );

    await outage(rig, async () => {
      // Two account events missed: a replay buffer of one cannot give them back.
      await minter.orders.place(mintParams('500', '2'));
      await minter.orders.place(mintParams('300', '2'));
    });
    await until(() => stream.stats().resyncs === 1 && stream.state === 'open', 'the resync');
    await until(() => named('match_venue stream.resync').length === 1, 'the resync span');
    await until(() => named('match_venue mirror.reread').length === 1, 'the re-read span');

    const connects = named('match_venue stream.connect');
    expect(connects.map((s) => s.attributes['match_venue.stream.reconnect'])).toEqual([false, true]);
    expect(connects.map((s) => s.attributes['match_venue.outcome'])).toEqual(['success', 'success']);

    const resync = named('match_venue stream.resync')[0]!;
    expect(resync.attributes).toMatchObject({
      'match_venue.stream.channel': 'account',
      'match_venue.stream.resync.reason': 'replay-unavailable',
    });
    // The reconciliation's REST reads are the resync's children.
    const reads = otel.spans().filter((s) => parentOf(s) === resync.spanContext().spanId);
    expect(reads.length).toBeGreaterThan(0);
    expect(new Set(reads.map((s) => s.name))).toEqual(new Set(['match_venue orders.list']));

    const point = async (metric: string) => (await otel.metric(metric)).points;
    expect(await point('match_venue.stream.connects')).toEqual(
      expect.arrayContaining([
        { attributes: { 'match_venue.stream.reconnect': false }, value: 1 },
        { attributes: { 'match_venue.stream.reconnect': true }, value: 1 },
      ]),
    );
    expect(await point('match_venue.stream.reconnects')).toEqual([{ attributes: {}, value: 1 }]);
    expect(await point('match_venue.stream.replay_fallbacks')).toEqual([
      { attributes: { 'match_venue.stream.channel': 'account' }, value: 1 },
    ]);
    expect(await point('match_venue.stream.resyncs')).toEqual([
      {
        attributes: {
          'match_venue.stream.channel': 'account',
          'match_venue.stream.resync.reason': 'replay-unavailable',
        },
        value: 1,
      },
    ]);
    const depth = await point('match_venue.stream.buffer.depth');
    expect(depth.map((p) => p.attributes['match_venue.stream.channel'])).toEqual(
      expect.arrayContaining(['market', 'account', 'undecoded']),
    );
    // A live event after the resync: its lag from the frame's ts is recorded.
    const live = await minter.orders.place(mintParams('200', '2'));
    await until(() => mirror.order(live.orderId) !== undefined, 'the live event');
    const lag = await point('match_venue.stream.event.lag');
    expect(lag).toHaveLength(1);
    expect((lag[0]?.value as { count?: number } | undefined)?.count).toBeGreaterThan(0);

    const stateNames = states.map((s) => (s as { state: string }).state);
    expect(stateNames.slice(0, 2)).toEqual(['connecting', 'open']);
    expect(stateNames).toContain('reconnecting');
    expect(stateNames.at(-1)).toBe('open');
    expect(resyncs).toMatchObject([{ channel: 'account', reason: 'replay-unavailable' }]);

    // No ticket (a JWT) or key anywhere: the ticket requests are spans too.
    const text = otel.spans().map(spanText).join('\n') + JSON.stringify([states, resyncs]);
    expect(text).toContain('match_venue stream.ticket');
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]+\./);
    expect(text).not.toContain('TEST_API_KEY');
  });

  it('waitForOutcome: a span whose REST reads are its children, failed with MV_WAIT_TIMEOUT', async () => {
    const minter = clientOf(rig, 'minter');
    const placed = await minter.orders.place(mintParams('500', '2'));
    otel.reset();
    const err = await minter.orders
      .waitForOutcome(placed.orderId, { timeout: 300, pollIntervalMs: 50 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    await until(() => named('match_venue orders.waitForOutcome').length === 1, 'the wait span');
    const wait = named('match_venue orders.waitForOutcome')[0]!;
    expect(wait.attributes).toMatchObject({
      'match_venue.order_id': placed.orderId,
      'match_venue.outcome': 'error',
      'error.type': 'MV_WAIT_TIMEOUT',
    });
    const reads = otel.spans().filter((s) => s.name === 'match_venue orders.retrieve');
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) expect(parentOf(r)).toBe(wait.spanContext().spanId);
  });
});
