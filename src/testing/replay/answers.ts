/**
 * The REST side of a replay: each request answered with the recorded answers of its signature, in
 * recorded order, the last one repeated once they are used up (a bot that polls more often on
 * replay than when recorded still reads the final state). The ticket call's answer carries a replay
 * ticket naming the key's next recorded connection, which the socket side plays. Keeps which
 * recorded exchanges have been answered, which gates the frames recorded after a write.
 */
import type { CassetteHttp, CassetteJson } from '../../contract/cassette.js';
import { type CassetteBook, type RecordedConnection, TICKET_PATH } from './book.js';
import { readLiveRequest } from './request.js';
import { unrecordedRequest } from './unrecorded.js';

/**
 * What a request gets: a response, or the failure recorded in place of one (`timeout`: the
 * attempt ran out of time, so the replay answers nothing until the client gives up; `network`:
 * the connection failed).
 */
export type ReplayAnswer = { response: Response } | { failure: 'timeout' | 'network'; error: string };

/** Which recorded exchanges have been answered, and who waits for one. */
export class Progress {
  private readonly answered = new Set<number>();
  private readonly waiting = new Map<number, (() => void)[]>();

  mark(index: number): void {
    this.answered.add(index);
    for (const wake of this.waiting.get(index) ?? []) wake();
    this.waiting.delete(index);
  }

  /** Resolves once the exchange at `index` has been answered (at once for -1, no exchange). */
  answeredAt(index: number): Promise<void> {
    if (index < 0 || this.answered.has(index)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiting.get(index) ?? [];
      list.push(resolve);
      this.waiting.set(index, list);
    });
  }
}

// Statuses whose responses have no body (the Response constructor refuses one).
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function responseOf(recorded: NonNullable<CassetteHttp['response']>, body = recorded.body): Response {
  if (NULL_BODY.has(recorded.status)) return new Response(null, { status: recorded.status });
  if (recorded.text !== undefined)
    return new Response(recorded.text, {
      status: recorded.status,
      headers: { 'content-type': 'text/plain' },
    });
  return new Response(body === null ? null : JSON.stringify(body), {
    status: recorded.status,
    headers: body === null ? {} : { 'content-type': 'application/json' },
  });
}

const isObject = (value: CassetteJson | undefined): value is { [key: string]: CassetteJson } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The recorded ticket answer with `ticket` in place of the redacted one (in `data` when enveloped). */
function withTicket(body: { [key: string]: CassetteJson }, ticket: string): CassetteJson {
  return isObject(body.data) ? { ...body, data: { ...body.data, ticket } } : { ...body, ticket };
}

/** The REST half of a replay over `book`. */
export class ReplayAnswers {
  readonly progress = new Progress();
  /** Replay tickets handed out: the recorded connection each names (undefined: none left to play). */
  private readonly tickets = new Map<string, RecordedConnection | undefined>();
  private readonly next = new Map<string, number>();
  private readonly ticketsByKey = new Map<string, number>();
  private issued = 0;

  constructor(private readonly book: CassetteBook) {}

  /**
   * The answer to `request`, its path read below `basePath` (the base URL's path, '' for an
   * origin); throws UnrecordedRequestError for a request the cassette never saw.
   */
  async answer(request: Request, basePath = ''): Promise<ReplayAnswer> {
    const live = await readLiveRequest(request, basePath);
    const recorded = this.book.answers.get(live.signature);
    if (!recorded || recorded.length === 0)
      throw unrecordedRequest(live, this.book.requests, this.book.source);
    const position = this.next.get(live.signature) ?? 0;
    const { index, entry } = recorded[Math.min(position, recorded.length - 1)] as (typeof recorded)[number];
    this.next.set(live.signature, position + 1);
    this.progress.mark(index);
    const response = entry.response;
    if (response === null) {
      const error = entry.error ?? 'no response';
      return { failure: /timed? ?out/i.test(error) ? 'timeout' : 'network', error };
    }
    const isTicket = entry.request.method.toUpperCase() === 'POST' && entry.request.path === TICKET_PATH;
    if (isTicket && response.status < 300 && isObject(response.body)) {
      return { response: responseOf(response, withTicket(response.body, this.issueTicket(live.keyId))) };
    }
    return { response: responseOf(response) };
  }

  /** The recorded connection a replay ticket names; undefined for a ticket this replay never gave. */
  redeem(ticket: string | undefined): { connection: RecordedConnection | undefined } | undefined {
    if (ticket === undefined || !this.tickets.has(ticket)) return undefined;
    const connection = this.tickets.get(ticket);
    // Single use, as the venue's tickets are.
    this.tickets.delete(ticket);
    return { connection };
  }

  /** A ticket for `keyId`'s next recorded connection: `replay-<n>`, numbered in order of issue. */
  private issueTicket(keyId: string | null): string {
    const key = keyId ?? '-';
    const n = this.ticketsByKey.get(key) ?? 0;
    this.ticketsByKey.set(key, n + 1);
    this.issued += 1;
    const ticket = `replay-${this.issued}`;
    this.tickets.set(ticket, this.book.connection(keyId, n));
    return ticket;
  }
}

/**
 * A web handler over `answers`: a recorded failure becomes the rejection a broken connection gives
 * a fetch (a TypeError, with the recorded error's system code when it names one, so that a client
 * can still tell a request that never left), or for a timeout nothing until the request's signal
 * aborts.
 */
export function replayHandler(
  answers: ReplayAnswers,
  basePath = '',
): (request: Request) => Promise<Response> {
  return async (request) => {
    const answer = await answers.answer(request, basePath);
    if ('response' in answer) return answer.response;
    if (answer.failure === 'timeout') {
      await new Promise<void>((resolve) => {
        if (request.signal.aborted) resolve();
        else request.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      throw request.signal.reason;
    }
    const code = /\bE[A-Z]{3,}\b/.exec(answer.error)?.[0];
    throw new TypeError('fetch failed', {
      cause: Object.assign(new Error(answer.error), code ? { code } : {}),
    });
  };
}
