import {
  type FetchLike,
  type Transport,
  type TransportRequest,
  type TransportResponse,
  TransportTimeoutError,
  type WebHandler,
} from './transport.js';

function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

interface Abortable {
  abort(reason: unknown): void;
}

/**
 * Arms `target` to abort on the caller's signal or after `timeoutMs` (with TransportTimeoutError),
 * runs `send`, and keeps the deadline armed until the body has been read.
 */
function withDeadline<S extends Abortable>(
  req: TransportRequest,
  target: S,
  send: (signal: S) => Promise<TransportResponse>,
): Promise<TransportResponse> {
  const user = req.signal;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    target.abort(new TransportTimeoutError(`timed out after ${req.timeoutMs}ms`));
  }, req.timeoutMs);
  const onAbort = () => target.abort(user?.reason);
  if (user?.aborted) onAbort();
  else user?.addEventListener('abort', onAbort, { once: true });
  const done = () => {
    clearTimeout(timer);
    user?.removeEventListener('abort', onAbort);
  };
  const fail = (err: unknown): never => {
    done();
    if (!timedOut || err instanceof TransportTimeoutError) throw err;
    throw new TransportTimeoutError(`timed out after ${req.timeoutMs}ms`, { cause: err });
  };
  return send(target).then(
    (res) => ({
      status: res.status,
      headers: res.headers,
      text: () =>
        res.text().then((text) => {
          done();
          return text;
        }, fail),
    }),
    fail,
  );
}

/** Transport over a `fetch` function (for msw, which intercepts global fetch, or custom stacks). */
export function fetchTransport(fetchFn: FetchLike): Transport {
  return (req) =>
    withDeadline(req, new AbortController(), async (controller) => {
      const init: RequestInit = { method: req.method, headers: req.headers, signal: controller.signal };
      if (req.body !== undefined) init.body = req.body;
      const response = await fetchFn(req.url, init);
      return { status: response.status, headers: headersOf(response), text: () => response.text() };
    });
}

/** Transport that calls a web handler in-process (mock mode, createMockVenue). */
export function handlerTransport(handle: WebHandler): Transport {
  return fetchTransport((input, init) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const pending = handle(new Request(input, init));
    if (!signal) return pending;
    // The handler does not watch the signal, so timeouts and aborts race it here.
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(
        (r) => {
          signal.removeEventListener('abort', onAbort);
          resolve(r);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  });
}
