/**
 * msw handlers backed by a simulator: {@link createHandlers}.
 *
 * @module match-venue/msw
 */

import { HttpResponse, http, type RequestHandler } from 'msw';
import type { Simulator } from '../simulator/index.js';
import { getMockSimulator } from './mock-mode.js';

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
