import type { Channel } from '../contract/ws-protocol.js';
import { redactText } from '../core/logger.js';
import { channels } from '../core/telemetry/channels.js';
import { SPAN_PREFIX } from '../core/telemetry/names.js';
import { watchDepth } from '../core/telemetry/depth.js';
import { otelNow } from '../core/telemetry/otel.js';
import type { StateChange } from './api.js';
import type { ResyncReason } from './channels.js';

// The stream's health as telemetry: a span per connection attempt (`match_venue stream.connect`,
// ended when the socket opens or the attempt fails) and per resync (`match_venue stream.resync`,
// covering the REST reconciliation, whose reads become its children), the stream metrics, and the
// `match_venue:stream:*` diagnostics channels. Everything is read from what the stream already
// does (its state changes, its resyncs, its events); with nothing listening each costs a check.

let streams = 0;

/** What the `match_venue:stream:state` channel carries. */
export interface StreamStatePayload {
  /** Numbers the streams of this process, from 1. */
  streamId: number;
  state: StateChange['state'];
  attempt: number;
  reason?: string;
}

/** What the `match_venue:stream:resync` channel carries. */
export interface StreamResyncPayload {
  streamId: number;
  channel: Channel;
  reason: ResyncReason;
  lastSeq: number | null;
  resumedAtSeq: number;
}

export class StreamObserver {
  readonly #id = ++streams;
  /**
   * The connection attempt under way. Its span is made when the attempt ends, with the attempt's
   * start time: the first attempt of a process can start before the API has finished loading.
   */
  #connecting: { at: number; attempt: number; reconnect: boolean } | undefined;
  /** The socket was lost after it had opened: the next open is a reconnect. */
  #lost = false;
  #opened = false;
  readonly #unwatch: () => void;

  /** `depth` lists the events waiting per channel (iterator buffers and the undecoded backlog). */
  constructor(depth: () => Iterable<[string, number]>) {
    this.#unwatch = watchDepth(depth);
  }

  /** A state change of the session. */
  state(change: StateChange): void {
    const dc = channels();
    if (dc?.streamState.hasSubscribers) {
      const payload: StreamStatePayload = {
        streamId: this.#id,
        state: change.state,
        attempt: change.attempt,
      };
      if (change.reason !== undefined) payload.reason = redactText(change.reason);
      dc.streamState.publish(payload);
    }
    const otel = otelNow();
    switch (change.state) {
      case 'connecting':
      case 'reconnecting':
        if (change.reason === undefined) {
          // An attempt starts (the session announces each one without a reason).
          this.#endConnect('superseded');
          const reconnect = this.#lost || change.state === 'reconnecting';
          this.#connecting = { at: Date.now(), attempt: change.attempt + 1, reconnect };
        } else {
          if (this.#opened && this.#connecting === undefined) this.#lost = true;
          this.#endConnect(change.reason);
        }
        return;
      case 'open': {
        this.#endConnect(undefined);
        if (otel) {
          const instruments = otel.bridge.instrumentsOf(otel.api);
          const reconnect = this.#lost;
          instruments.connects.add(1, { 'match_venue.stream.reconnect': reconnect });
          if (reconnect) instruments.reconnects.add(1);
        }
        this.#opened = true;
        this.#lost = false;
        return;
      }
      case 'closed':
        this.#endConnect(change.reason ?? 'closed');
        this.#unwatch();
        return;
    }
  }

  /** Ends the current attempt: opened (no reason) or failed (`reason`); its span, when tracing. */
  #endConnect(reason: string | undefined): void {
    const current = this.#connecting;
    if (current === undefined) return;
    this.#connecting = undefined;
    const otel = otelNow();
    if (otel === undefined) return;
    const span = otel.bridge.tracerOf(otel.api).startSpan(`${SPAN_PREFIX} stream.connect`, {
      kind: otel.api.SpanKind.CLIENT,
      startTime: current.at,
      attributes: {
        'match_venue.stream.id': this.#id,
        'match_venue.stream.attempt': current.attempt,
        'match_venue.stream.reconnect': current.reconnect,
        'match_venue.outcome': reason === undefined ? 'success' : 'error',
      },
    });
    if (reason !== undefined) otel.bridge.failSpan(otel.api, span, 'MV_STREAM_CONNECT', redactText(reason));
    span.end();
  }

  /**
   * A channel resyncs from `lastSeq` to `resumedAt`; `reconcile` (account) reads what was missed
   * over REST, inside the resync's span.
   */
  resync(
    channel: Channel,
    reason: ResyncReason,
    lastSeq: number | null,
    resumedAt: number,
    reconcile: (() => Promise<void>) | undefined,
  ): void {
    const dc = channels();
    if (dc?.streamResync.hasSubscribers) {
      const payload: StreamResyncPayload = {
        streamId: this.#id,
        channel,
        reason,
        lastSeq,
        resumedAtSeq: resumedAt,
      };
      dc.streamResync.publish(payload);
    }
    const otel = otelNow();
    if (otel === undefined) {
      void reconcile?.();
      return;
    }
    const instruments = otel.bridge.instrumentsOf(otel.api);
    const attributes = { 'match_venue.stream.channel': channel, 'match_venue.stream.resync.reason': reason };
    instruments.resyncs.add(1, attributes);
    if (reason === 'gap') instruments.gaps.add(1, { 'match_venue.stream.channel': channel });
    if (reason === 'replay-unavailable')
      instruments.replayFallbacks.add(1, { 'match_venue.stream.channel': channel });
    const span = otel.bridge.tracerOf(otel.api).startSpan(`${SPAN_PREFIX} stream.resync`, {
      attributes: {
        ...attributes,
        'match_venue.stream.id': this.#id,
        'match_venue.stream.last_seq': lastSeq ?? -1,
        'match_venue.stream.resumed_at_seq': resumedAt,
      },
    });
    if (reconcile === undefined) {
      span.end();
      return;
    }
    const ctx = otel.api.trace.setSpan(otel.api.context.active(), span);
    // reconcile never rejects (it retries until the stream closes); finally ends the span either way.
    void otel.api.context.with(ctx, reconcile).finally(() => span.end());
  }

  /** An event with the server's timestamp `ts` arrived: its lag, when metrics are on. */
  event(ts: string): void {
    const otel = otelNow();
    if (otel === undefined) return;
    const at = Date.parse(ts);
    if (Number.isNaN(at)) return;
    otel.bridge.instrumentsOf(otel.api).eventLag.record(Math.max(0, Date.now() - at) / 1000);
  }
}
