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
