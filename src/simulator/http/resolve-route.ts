/**
 * What a request's method and path resolve to, across the simulator's route tables: the venue's,
 * the `/_sim/` controls and the platform's (which the platform hands over through its port). Each
 * request is resolved once: the web handler and node:http both pass the result on to the dispatch.
 */
import { MAX_BODY_BYTES } from './body.js';
import { controlRoutes } from './control-routes.js';
import { type ControlHandler, restoreSnapshot } from './market-routes.js';
import type { OperationRoute } from './operations.js';
import type { PlatformControlHandler, PlatformHandler, PlatformPort } from './port.js';
import type { HttpError } from './responses.js';
import { handlerFor, matchRoute, methodNotAllowed, notFound } from './router.js';
import { type VenueRequest, venueRoutes } from './venue-routes.js';

/**
 * A path and method resolved, before anything else is read: a path no route has is 404, a method
 * the path does not serve 405 with `Allow` (router.ts), whatever the request holds besides (key,
 * body).
 */
export type ResolvedRoute =
  | { readonly kind: 'venue'; readonly operation: OperationRoute<VenueRequest>; readonly params: Params }
  | { readonly kind: 'control'; readonly handler: ControlHandler; readonly params: Params }
  | { readonly kind: 'platform'; readonly handler: PlatformHandler; readonly params: Params }
  | { readonly kind: 'platform-control'; readonly handler: PlatformControlHandler };

type Params = Record<string, string>;

/**
 * The route of `method` on `path`, or its 404 or 405: returned, not thrown, since node:http answers
 * it before reading the body. No closure per request: this runs on every one (issue 23).
 */
export function resolveRoute(
  platform: PlatformPort,
  method: string,
  path: string,
): ResolvedRoute | HttpError {
  if (path.startsWith('/_sim/')) {
    const own = Object.hasOwn(platform.controlRoutes, path) ? platform.controlRoutes[path] : undefined;
    if (own) {
      const handler = handlerFor(own, method);
      return handler ? { kind: 'platform-control', handler } : methodNotAllowed(own, method, path);
    }
    const m = matchRoute(controlRoutes, path);
    if (!m) return notFound(method, path);
    const handler = handlerFor(m.methods, method);
    return handler
      ? { kind: 'control', handler, params: m.params }
      : methodNotAllowed(m.methods, method, path);
  }
  // The venue's paths first: they are nearly every request. No path is both a venue and a platform
  // one; the platform's paths are matched with their trailing slashes dropped.
  const venue = matchRoute(venueRoutes, path);
  if (venue) {
    const operation = handlerFor(venue.methods, method);
    return operation
      ? { kind: 'venue', operation, params: venue.params }
      : methodNotAllowed(venue.methods, method, path);
  }
  const m = matchRoute(platform.routes, path.replace(/\/+$/, ''));
  if (!m) return notFound(method, path);
  const handler = handlerFor(m.methods, method);
  return handler
    ? { kind: 'platform', handler, params: m.params }
    : methodNotAllowed(m.methods, method, path);
}

/**
 * The most the route's body may weigh. A snapshot is far larger than any other body: `POST
 * /_sim/restore` (from a caller the access rules admitted: the control token, where one is
 * required) is read up to the restore limit, every other body up to MAX_BODY_BYTES.
 */
export function bodyLimitOf(route: ResolvedRoute, restoreLimitBytes: number): number {
  return route.kind === 'control' && route.handler === restoreSnapshot ? restoreLimitBytes : MAX_BODY_BYTES;
}
