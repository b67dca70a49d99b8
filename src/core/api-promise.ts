import type { ResponseHeaders } from './error.js';

/** What the pipeline hands back for a 2xx response before the body is interpreted. */
export interface RawResponse {
  status: number;
  headers: ResponseHeaders;
  requestId: string | undefined;
  bodyText: string;
}

/** Status, headers and request id of the response a value came from. */
export interface ResponseInfo {
  /** The HTTP status. */
  status: number;
  /** The response headers, names in lower case. */
  headers: ResponseHeaders;
  /** The `x-request-id` header; quote it when reporting a problem. */
  requestId: string | undefined;
}

/** What {@link APIPromise.withResponse} resolves to. */
export interface WithResponse<T> {
  /** The parsed `data` of the success body. */
  data: T;
  /** Status, headers and request id of the response. */
  response: ResponseInfo;
}

/**
 * The result of every API call: await it for the parsed data, or ask for the response with
 * `.withResponse()` / `.asResponse()`. The request starts when the method is called, not when
 * the promise is awaited. The body is parsed once, on first use.
 */
export class APIPromise<T> extends Promise<T> {
  /**
   * Promise machinery (then chains, Promise.all) builds plain Promises from this class.
   * @internal
   */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  #raw: Promise<RawResponse>;
  #parse: (raw: RawResponse) => T;
  #parsed: Promise<T> | undefined;

  /**
   * Made by the client's methods, not by callers.
   * @internal
   */
  constructor(raw: Promise<RawResponse>, parse: (raw: RawResponse) => T) {
    // The base promise is never observed: then/catch/finally are redirected to the parsed result,
    // which keeps this a real Promise (assignable to Promise<T>) without parsing eagerly.
    super((resolve) => resolve(undefined as never));
    this.#raw = raw;
    this.#parse = parse;
  }

  /**
   * A promise that rejects with `error` without sending anything (bad input).
   * @internal
   */
  static rejected<T>(error: unknown): APIPromise<T> {
    return new APIPromise<T>(Promise.reject(error), () => {
      throw error;
    });
  }

  /**
   * An APIPromise over a call made of steps (a read before the request, an answer drawn from a
   * refusal): `work` resolves to the data and the response it stands on, which `.withResponse()`
   * and `.asResponse()` then give.
   * @internal
   */
  static from<T>(work: Promise<{ data: T; raw: RawResponse }>): APIPromise<T> {
    let data: T;
    const raw = work.then((done) => {
      data = done.data;
      return done.raw;
    });
    // Parsed only once `raw` resolved, so `data` is set by then.
    return new APIPromise<T>(raw, () => data);
  }

  /**
   * The data of `promise` with the response it came from, for a step of {@link APIPromise.from}.
   * @internal
   */
  static async settle<T>(promise: APIPromise<T>): Promise<{ data: T; raw: RawResponse }> {
    const raw = await promise.#raw;
    return { data: await promise.#parsedPromise(), raw };
  }

  #parsedPromise(): Promise<T> {
    this.#parsed ??= this.#raw.then(this.#parse);
    return this.#parsed;
  }

  /** The data plus the response's status, headers and request id. */
  async withResponse(): Promise<WithResponse<T>> {
    const raw = await this.#raw;
    const data = await this.#parsedPromise();
    return { data, response: { status: raw.status, headers: raw.headers, requestId: raw.requestId } };
  }

  /** A web `Response` holding the unparsed body (errors still reject as APIError). */
  async asResponse(): Promise<Response> {
    const raw = await this.#raw;
    const noBody = raw.status === 204 || raw.status === 205 || raw.status === 304;
    return new Response(noBody ? null : raw.bodyText, { status: raw.status, headers: { ...raw.headers } });
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass must override then.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#parsedPromise().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#parsedPromise().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsedPromise().finally(onfinally);
  }
}
