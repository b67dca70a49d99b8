// What the clients of a mock venue (createMockVenue's, simulator or replay) share: where their
// handler says to stream, and the tracking that lets the venue's close() end their streams.
import { ConfigurationError, type MatchVenue, type MatchVenueOptions, type Stream } from 'match-venue';

/** Client options a mock client may still set (everything but the identity and transport). */
export type MockClientOptions = Omit<
  MatchVenueOptions,
  'apiKey' | 'environment' | 'handler' | 'fetch' | 'dispatcher'
>;

// The key under which a handler tells its client where to stream: src/client/mock-mode.ts
// (HANDLER_WS_URL) reads it; a registered symbol, so neither side imports the other.
export const HANDLER_WS_URL = Symbol.for('match-venue.handler-ws-url');

export const closedError = () =>
  new ConfigurationError('This mock venue is closed: create another one to stream from it');

/**
 * Keeps the streams `venue` opens in `open` until they close, so that the mock venue's close()
 * can end them: a stream left behind would keep reconnecting to a venue that is gone.
 */
export function trackStreams(
  venue: MatchVenue,
  open: Set<Stream.VenueStream>,
  isClosed: () => boolean,
): void {
  const { stream } = venue;
  const connect = stream.connect.bind(stream);
  stream.connect = (streamOptions) => {
    if (isClosed()) throw closedError();
    const opened = connect(streamOptions);
    open.add(opened);
    opened.on('state', ({ state }) => {
      if (state === 'closed') open.delete(opened);
    });
    return opened;
  };
}
