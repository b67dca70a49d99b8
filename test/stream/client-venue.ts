import { connectStream, type StreamState, type VenueStream } from '../../src/stream/index.js';
import { hostFor, type SeededName, type TestHost, take } from './helpers.js';
import { cleanups, venue } from './venue-per-test.js';

// Shared by the client-*.test.ts files: streams on the test's venue (venue-per-test.ts), closed
// after the test.

export const fast = { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } };

export function open(
  name: SeededName,
  options = {},
  wsUrl = venue.wsUrl,
): { stream: VenueStream; host: TestHost; states: StreamState[] } {
  const host = hostFor(venue.url, wsUrl, name);
  const stream = connectStream(host, { ...fast, ...options });
  const states: StreamState[] = [];
  stream.on('state', (s) => states.push(s.state));
  cleanups.push(() => stream.close());
  return { stream, host, states };
}

/**
 * Subscribes the account channel, then proves the subscription is live: the server handles
 * frames in order, so once the later market subscribe's snapshot arrives, the account one is active.
 */
export async function accountReady(stream: VenueStream) {
  const account = stream.account();
  const probe = stream.market();
  await take(probe, 1);
  await probe.return?.();
  return account;
}

export function serverAccountLog(entityId: string): { event: string; data: unknown }[] {
  const log: { event: string; data: unknown }[] = [];
  const off = venue.sim.onEvent((e) => {
    if (e.channel === 'account' && e.entityId === entityId) log.push({ event: e.event, data: e.data });
  });
  cleanups.push(async () => off());
  return log;
}
