/**
 * A replay: a cassette served offline, its REST answers in-process and its streams from a loopback
 * socket server, deterministically (the same cassette and the same bot give the same results).
 * What mock mode with MATCH_VENUE_MOCK_CASSETTE, `createMockVenue({ cassette })` and
 * `createCassetteHandlers` (msw) all serve from; it never runs a simulator.
 */
import { InvalidArgumentError } from 'match-venue';
import { type CassetteDocument, readCassette } from '../../simulator/index.js';
import { type ReplayAnswer, ReplayAnswers, replayHandler } from './answers.js';
import { CassetteBook } from './book.js';
import { ReplaySocketServer } from './socket-server.js';

/** A cassette served; see {@link createReplay}. */
export interface Replay {
  /** The cassette, checked. */
  readonly cassette: CassetteDocument;
  /** The key ids of its recorded calls and connections, in no particular order. */
  readonly keyIds: ReadonlySet<string>;
  /**
   * Answers one request from the cassette (a web handler, for `new MatchVenue({ handler })`).
   * Rejects with UnrecordedRequestError (kind `MV_REPLAY_UNRECORDED`) for a request the cassette
   * never saw, naming the nearest recorded one; a recorded network failure rejects as a failed
   * fetch does, a recorded timeout only once the request's signal aborts.
   */
  handle(request: Request): Promise<Response>;
  /**
   * The WebSocket base URL streams replay from (a loopback server, started on the first call,
   * unref'd). Pass it as a client's `wsUrl` when the client is not bound to this replay already.
   */
  wsUrl(): Promise<string>;
  /** Terminates the replay's sockets and stops its server. */
  close(): Promise<void>;
}

/** Internal: one request's answer without the handler's translation (msw's handlers use it). */
export interface ReplayInternals {
  answer(request: Request, basePath: string): Promise<ReplayAnswer>;
}

const INTERNALS = new WeakMap<Replay, ReplayInternals>();

/** The answers behind `replay` (for the msw handlers, which answer a failure their own way). */
export function replayInternals(replay: Replay): ReplayInternals {
  const internals = INTERNALS.get(replay);
  if (!internals) throw new InvalidArgumentError('Not a replay made by createReplay');
  return internals;
}

/**
 * A replay of `cassette`: a file (read and checked; a CassetteError names the file and line) or a
 * CassetteDocument (from `parseCassette` / `readCassette` of `match-venue/simulator`).
 *
 * @example
 * ```ts
 * import { MatchVenue } from 'match-venue';
 * import { createReplay } from 'match-venue/testing';
 *
 * const replay = await createReplay('bot.cassette.ndjson');
 * const venue = new MatchVenue({ apiKey: 'TEST_API_KEY:burner:sim', handler: replay.handle });
 * console.log(await venue.orders.list());
 * await replay.close();
 * ```
 */
export async function createReplay(cassette: string | CassetteDocument): Promise<Replay> {
  const source = typeof cassette === 'string' ? cassette : undefined;
  const document = typeof cassette === 'string' ? await readCassette(cassette) : cassette;
  const book = new CassetteBook(document, source);
  const answers = new ReplayAnswers(book);
  const sockets = new ReplaySocketServer(answers);
  const replay: Replay = {
    cassette: document,
    keyIds: book.keyIds,
    handle: replayHandler(answers),
    wsUrl: () => sockets.url(),
    close: () => sockets.close(),
  };
  INTERNALS.set(replay, { answer: (request, basePath) => answers.answer(request, basePath) });
  return replay;
}
