import type { Channel as DiagnosticsChannel, TracingChannel } from 'node:diagnostics_channel';
import { CHANNELS } from './names.js';

// node:diagnostics_channel, found through `process.getBuiltinModule` rather than imported: the main
// entry's graph has no node: import (edge runtimes, bundles for the browser), and where there is no
// such module (Deno without node compat, an edge worker) every channel is simply absent. APMs
// subscribe by name without the SDK depending on them; a channel without subscribers costs one
// property read per call.

type DiagnosticsModule = typeof import('node:diagnostics_channel');

/** The channels of one process, made on first use. */
export interface Channels {
  call: TracingChannel<object, object>;
  request: DiagnosticsChannel;
  response: DiagnosticsChannel;
  retry: DiagnosticsChannel;
  streamState: DiagnosticsChannel;
  streamResync: DiagnosticsChannel;
}

let loaded: Channels | null | undefined;

function diagnosticsModule(): DiagnosticsModule | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return proc?.getBuiltinModule?.('node:diagnostics_channel') as DiagnosticsModule | undefined;
  } catch {
    return undefined;
  }
}

/** The SDK's channels, or undefined on a runtime without diagnostics_channel (or without tracingChannel). */
export function channels(): Channels | undefined {
  if (loaded !== undefined) return loaded ?? undefined;
  const dc = diagnosticsModule();
  if (typeof dc?.tracingChannel !== 'function') {
    loaded = null;
    return undefined;
  }
  loaded = {
    call: dc.tracingChannel(CHANNELS.call),
    request: dc.channel(CHANNELS.request),
    response: dc.channel(CHANNELS.response),
    retry: dc.channel(CHANNELS.retry),
    streamState: dc.channel(CHANNELS.streamState),
    streamResync: dc.channel(CHANNELS.streamResync),
  };
  return loaded;
}

/**
 * Whether anything subscribed to a TracingChannel. `hasSubscribers` is newer than tracingChannel
 * itself (Node 20.13); where it is missing, any of the five sub-channels counts.
 */
export function tracingActive(tc: TracingChannel<object, object>): boolean {
  const flag = (tc as { hasSubscribers?: boolean }).hasSubscribers;
  if (flag !== undefined) return flag;
  return (
    tc.start.hasSubscribers ||
    tc.end.hasSubscribers ||
    tc.asyncStart.hasSubscribers ||
    tc.asyncEnd.hasSubscribers ||
    tc.error.hasSubscribers
  );
}

/**
 * Runs `run` as a traced call on `tc` with `context` as its payload, as `tracePromise` does (start,
 * end, then asyncStart and asyncEnd when the promise settles, error before them on a rejection),
 * except that `done` fills in the result the payload carries: a redacted summary, never the raw
 * response (its body can hold a ticket).
 */
export function traceCall<C extends object, T>(
  tc: TracingChannel<object, object>,
  context: C,
  run: () => Promise<T>,
  done: (context: C, result: T) => void,
): Promise<T> {
  return tc.start.runStores(context, () => {
    let promise: Promise<T>;
    try {
      promise = run();
    } catch (error) {
      (context as { error?: unknown }).error = error;
      tc.error.publish(context);
      throw error;
    } finally {
      tc.end.publish(context);
    }
    return promise.then(
      (result) => {
        done(context, result);
        tc.asyncStart.publish(context);
        tc.asyncEnd.publish(context);
        return result;
      },
      (error: unknown) => {
        (context as { error?: unknown }).error = error;
        tc.error.publish(context);
        tc.asyncStart.publish(context);
        tc.asyncEnd.publish(context);
        throw error;
      },
    );
  });
}
