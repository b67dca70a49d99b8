/**
 * `createMockVenue({ cassette })`: clients answered from a recorded cassette rather than a
 * simulator. Its own type, ReplayVenue, has no simulator controls (clearAuction, advance, wire,
 * setFaults, reset): calling one on a replay fails to compile, since the auctions and the time are
 * the recorded ones.
 */
import { InvalidArgumentError, MatchVenue, type Stream } from 'match-venue';
import { type CassetteDocument, SEEDED, type SeededName } from '../simulator/index.js';
import { createReplay, type Replay } from './replay/replay.js';
import { closedError, HANDLER_WS_URL, type MockClientOptions, trackStreams } from './venue-streams.js';

/** Options of `createMockVenue({ cassette })`. */
export interface ReplayVenueOptions {
  /**
   * The cassette to replay: a file (read and checked; a CassetteError names the file and line) or
   * a CassetteDocument from `parseCassette` / `readCassette` (`match-venue/simulator`).
   */
  cassette: string | CassetteDocument;
}

/** A recorded cassette served to clients; see `createMockVenue({ cassette })`. */
export interface ReplayVenue {
  /** The replay behind the venue (its cassette, its handler, its WebSocket URL). */
  readonly replay: Replay;
  /**
   * A MatchVenue with the seeded entity's key (`burner`, `minter`, ...): answered from the
   * exchanges recorded under that key id, as a cassette recorded with seeded keys holds them.
   */
  client(entity: SeededName, options?: MockClientOptions): MatchVenue;
  /**
   * A MatchVenue answered from the exchanges recorded under `keyId` (the id part of the recording
   * client's key, `TEST_API_KEY:<id>:…`); an InvalidArgumentError lists the recorded ids when the
   * cassette has none of `keyId`.
   */
  clientForKeyId(keyId: string, options?: MockClientOptions): MatchVenue;
  /** Ends every stream its clients opened, then the replay's sockets and server. */
  close(): Promise<void>;
}

/** The replay venue of `options.cassette`. */
export async function createReplayVenue(options: ReplayVenueOptions): Promise<ReplayVenue> {
  const replay = await createReplay(options.cassette);
  let closed = false;
  const streams = new Set<Stream.VenueStream>();
  const wsUrl = () => (closed ? Promise.reject(closedError()) : replay.wsUrl());
  const handle = Object.assign((req: Request) => replay.handle(req), { [HANDLER_WS_URL]: wsUrl });
  const clientWith = (apiKey: string, clientOptions: MockClientOptions) => {
    const venue = new MatchVenue({ ...clientOptions, apiKey, handler: handle });
    trackStreams(venue, streams, () => closed);
    return venue;
  };
  return {
    replay,
    client(entity, clientOptions = {}) {
      const seeded = SEEDED[entity];
      if (!seeded)
        throw new InvalidArgumentError(
          `Unknown seeded entity "${String(entity)}"; use burner, minter, ineligible or noaccount`,
        );
      return clientWith(seeded.apiKey, clientOptions);
    },
    clientForKeyId(keyId, clientOptions = {}) {
      if (!replay.keyIds.has(keyId))
        throw new InvalidArgumentError(
          `The cassette records no exchange under key id "${keyId}"; it has ${
            [...replay.keyIds].sort().join(', ') || 'none'
          }`,
        );
      // Only the id is matched: the rest of the key stands in for the recorded one.
      return clientWith(`TEST_API_KEY:${keyId}:replay`, clientOptions);
    },
    async close() {
      closed = true;
      await Promise.all([...streams].map((stream) => stream.close()));
      await replay.close();
    },
  };
}
