/**
 * msw handlers backed by a simulator ({@link createHandlers}) or by a recorded cassette
 * ({@link createCassetteHandlers}).
 *
 * @module match-venue/msw
 */

import { HttpResponse, http, type RequestHandler } from 'msw';
import { type CassetteDocument, CassetteError, type Simulator } from '../simulator/index.js';
import { getMockSimulator } from './mock-mode.js';
import type { ReplayAnswer } from './replay/answers.js';
import { createReplay, type Replay, replayInternals } from './replay/replay.js';
import { UnrecordedRequestError } from './replay/unrecorded.js';

/** Options of {@link createHandlers}. */
export interface CreateHandlersOptions {
  /**
   * Origin (and optional path prefix) the handlers answer for, e.g. the `baseUrl` your client
   * uses. Default: any origin, for the API paths (`/v1/*`, `/v2/*`) and the `/_sim/*` control plane.
   */
  baseUrl?: string;
}

function isDropped(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { dropped?: unknown }).dropped === true;
}

/**
 * msw 2 request handlers backed by a simulator (default: the shared mock-mode simulator), for
 * `setupServer(...createHandlers(sim))` in a test suite. A client made with no `fetch` or
 * `dispatcher` option sends through msw while it listens (it notices the patched global fetch);
 * a client given a `dispatcher` always uses undici, which msw cannot see.
 */
export function createHandlers(sim?: Simulator, options: CreateHandlersOptions = {}): RequestHandler[] {
  const simulator = sim ? Promise.resolve(sim) : getMockSimulator();
  const resolve = async ({ request }: { request: Request }) => {
    try {
      return await (await simulator).handle(request);
    } catch (err) {
      // The simulator's dropped-response fault: the request was applied, the answer is lost.
      if (isDropped(err)) return HttpResponse.error();
      throw err;
    }
  };
  const base = options.baseUrl?.replace(/\/+$/, '');
  const patterns = base ? [`${base}/*`] : ['*/v1/*', '*/v2/*', '*/_sim/*'];
  return patterns.map((pattern) => http.all(pattern, resolve));
}

/** Options of {@link createCassetteHandlers}. */
export interface CassetteHandlersOptions {
  /**
   * The `baseUrl` your client uses: the handlers answer below it, and read request paths below
   * its path (as the recorder wrote them). Default: any origin, for the API paths (`/v1/*`, `/v2/*`).
   */
  baseUrl?: string;
}

const isReplay = (value: Replay | CassetteDocument | string): value is Replay =>
  typeof value === 'object' && 'handle' in value;

/**
 * msw 2 request handlers answering from a recorded cassette (a file, a CassetteDocument, or a
 * Replay from `createReplay`), offline and in recorded order, for
 * `setupServer(...createCassetteHandlers(cassette, { baseUrl }))`. A request the cassette never
 * saw is answered 500 with the UnrecordedRequestError's message (the request and the nearest
 * recorded one) as the body's `message`, so the client's error shows it, and so is every request
 * when the cassette file cannot be used (its CassetteError, naming the line); a recorded network
 * failure is msw's network error. msw does not carry WebSocket streams: to replay those, pass a
 * Replay and give the client its `await replay.wsUrl()` as `wsUrl`.
 */
export function createCassetteHandlers(
  cassette: Replay | CassetteDocument | string,
  options: CassetteHandlersOptions = {},
): RequestHandler[] {
  const replay = isReplay(cassette) ? Promise.resolve(cassette) : createReplay(cassette);
  // A cassette that cannot be read fails each request (below), not the process meanwhile.
  replay.catch(() => undefined);
  const base = options.baseUrl?.replace(/\/+$/, '');
  const basePath = base ? new URL(base).pathname.replace(/\/+$/, '') : '';
  const resolve = async ({ request }: { request: Request }) => {
    let answer: ReplayAnswer;
    try {
      answer = await replayInternals(await replay).answer(request, basePath);
    } catch (err) {
      if (!(err instanceof UnrecordedRequestError || err instanceof CassetteError)) throw err;
      return HttpResponse.json({ code: -1, message: err.message, kind: err.kind }, { status: 500 });
    }
    if ('response' in answer) return answer.response;
    if (answer.failure === 'network') return HttpResponse.error();
    // A recorded timeout: no answer until the client gives up on the request.
    await new Promise<void>((done) => {
      if (request.signal.aborted) done();
      else request.signal.addEventListener('abort', () => done(), { once: true });
    });
    return HttpResponse.error();
  };
  const patterns = base ? [`${base}/*`] : ['*/v1/*', '*/v2/*'];
  return patterns.map((pattern) => http.all(pattern, resolve));
}
