import { VenueError } from '../engine/errors.js';
import type { SimulatorCore } from '../simulator.js';
import { bearerKey, unknownKey } from './auth.js';
import { controlRoutes } from './control-routes.js';
import { HttpError, jsonResponse } from './responses.js';
import { matchRoute } from './router.js';
import { venueRoutes } from './venue-routes.js';

/**
 * The `dropResponse` fault: the request was applied but its answer never arrives. In process this
 * is a rejection shaped like undici's `fetch failed`; the node server destroys the socket instead.
 */
export class DroppedResponseError extends TypeError {
  readonly dropped = true;
  constructor() {
    super('fetch failed', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
  }
}

const PLATFORM_PREFIXES = ['/v1/configuration', '/v1/notifications/', '/v2/'];
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The caller's `x-request-id` when it is a short token, else a fresh `req_<uuid>`. */
export function requestIdFor(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) ? incoming : `req_${crypto.randomUUID()}`;
}

function notFound(method: string, path: string): HttpError {
  return new HttpError(404, -1, `No route for ${method} ${path}`);
}

function methodNotAllowed(
  methods: Partial<Record<string, unknown>>,
  method: string,
  path: string,
): HttpError {
  const allow = Object.keys(methods).join(', ');
  return new HttpError(405, -1, `${method} is not allowed on ${path}`, undefined, { allow });
}

function toHttpError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof VenueError) {
    // Code 2 always carries the extended body, whichever layer found the fault.
    const f = err.field;
    const errors = f ? [{ error: 'invalid_value', ...f }] : undefined;
    return new HttpError(err.status, err.code, err.message, errors);
  }
  return undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function route(sim: SimulatorCore, req: Request, url: URL): Promise<{ res: Response; drop: boolean }> {
  const path = url.pathname;
  const method = req.method.toUpperCase();
  if (path.startsWith('/_sim/')) {
    const platformRes = await sim.platformControl(req);
    if (platformRes) return { res: platformRes, drop: false };
    const m = matchRoute(controlRoutes, path);
    if (!m) throw notFound(method, path);
    const h = m.methods[method];
    if (!h) throw methodNotAllowed(m.methods, method, path);
    return { res: await h(sim, req), drop: false };
  }
  const isPlatform = PLATFORM_PREFIXES.some((p) => path === p || path.startsWith(p));
  const m = isPlatform ? undefined : matchRoute(venueRoutes, path);
  if (!isPlatform && !m) throw notFound(method, path);
  const key = bearerKey(req);
  const entity = sim.engine.entityForApiKey(key);
  if (!entity) throw unknownKey();
  const wait = sim.rateLimiter?.take(key, Date.now()) ?? 0;
  if (wait > 0) {
    const seconds = Math.max(1, Math.ceil(wait / 1000));
    throw new HttpError(429, -1, `Rate limit exceeded; retry after ${seconds} s`, undefined, {
      'retry-after': String(seconds),
    });
  }
  const faults = sim.faults;
  if (faults.latencyMs) await sleep(faults.latencyMs);
  if (faults.errorRate && sim.random() < faults.errorRate)
    throw new HttpError(503, -1, 'Simulated outage (fault injection); the request was not applied');
  const drop = sim.takeDrop();
  if (isPlatform) {
    const res = await sim.platformHandle(req, entity.id);
    if (!res) throw notFound(method, path);
    return { res, drop };
  }
  const handlers = m?.methods ?? {};
  const h = handlers[method];
  if (!h) throw methodNotAllowed(handlers, method, path);
  sim.engine.assertEligible(entity.id);
  return { res: await h(sim, { req, url, entityId: entity.id, params: m?.params ?? {} }), drop };
}

/** The one web handler: node:http, the in-process mock transport and msw all call this. */
export async function handleRequest(sim: SimulatorCore, req: Request): Promise<Response> {
  const requestId = requestIdFor(req.headers.get('x-request-id'));
  let res: Response;
  let drop = false;
  try {
    const url = new URL(req.url);
    ({ res, drop } = await route(sim, req, url));
  } catch (err) {
    const known = toHttpError(err);
    if (known) res = known.toResponse();
    else {
      sim.logger.error(`unexpected error handling ${req.method} ${req.url} (${requestId})`, err);
      res = jsonResponse(500, { code: -1, message: 'Internal simulator error' });
    }
  } finally {
    sim.afterRequest();
  }
  if (drop) throw new DroppedResponseError();
  const headers = new Headers(res.headers);
  headers.set('x-request-id', requestId);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
