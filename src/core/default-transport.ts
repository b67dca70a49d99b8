import type { Dispatcher } from 'undici';
import { fetchTransport } from './fetch-transport.js';
import type { Transport } from './transport.js';
import { loadUndici, sharedDispatcher, undiciTransport } from './undici-transport.js';

// The fetch this process started with: a later replacement of `globalThis.fetch` is an interceptor
// (msw, nock 14, a test's spy) that only sees requests made through it.
const startupFetch: unknown = globalThis.fetch;
// @mswjs/interceptors (under msw and nock) registers an applied fetch interceptor on globalThis
// under this symbol, which also catches one set up before this module was loaded.
const MSW_FETCH_INTERCEPTOR = Symbol.for('fetch-interceptor');

/** True while something intercepts the global fetch (msw's `setupServer().listen()`, nock…). */
export function fetchIsIntercepted(): boolean {
  const global = globalThis as { fetch?: unknown; [MSW_FETCH_INTERCEPTOR]?: unknown };
  return global.fetch !== startupFetch || global[MSW_FETCH_INTERCEPTOR] !== undefined;
}

/**
 * What the default transport sends through once loaded: undici over the shared keep-alive pool,
 * or the global fetch where undici cannot be loaded (a bundle, Deno, an edge runtime).
 */
async function directTransport(viaGlobalFetch: Transport): Promise<Transport> {
  const undici = await loadUndici();
  if (!undici) return viaGlobalFetch;
  let dispatcher: Dispatcher;
  try {
    dispatcher = sharedDispatcher(undici);
  } catch {
    // An undici that loads but cannot make its pool (a broken install, a runtime's stand-in): its
    // error would fail this request, which never left, as if it might have landed, and every later
    // one with it (the load is kept).
    return viaGlobalFetch;
  }
  // Bun answers `import('undici')` with a stand-in of its own whose Agent has no request(): there
  // the runtime's native fetch is the direct path.
  return typeof dispatcher.request === 'function' ? undiciTransport(dispatcher) : viaGlobalFetch;
}

/**
 * The default transport: undici (the fast path, loaded on the first request), except while a
 * fetch interceptor is active, when requests go through the global fetch so that the interceptor
 * sees them. Checked per request: a suite's `server.listen()` usually runs after its clients are
 * made.
 */
export function defaultTransport(): Transport {
  const viaGlobalFetch = fetchTransport((input, init) => globalThis.fetch(input, init));
  const direct = lazyTransport(() => directTransport(viaGlobalFetch));
  return (req) => (fetchIsIntercepted() ? viaGlobalFetch(req) : direct(req));
}

/**
 * A transport resolved on first use (undici, mock mode's simulator, a recording client's). Once
 * resolved, a request costs one call: no promise hop for the load. A load that fails fails the
 * requests waiting on it, and the next request loads again.
 */
export function lazyTransport(load: () => Promise<Transport>): Transport {
  let loaded: Transport | undefined;
  let loading: Promise<Transport> | undefined;
  return (req) => {
    if (loaded) return loaded(req);
    loading ??= load().then(
      (transport) => {
        loaded = transport;
        return transport;
      },
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    return loading.then((transport) => transport(req));
  };
}
