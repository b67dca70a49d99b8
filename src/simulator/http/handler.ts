import { sleep } from '../../contract/retry-policy.js';
import { VenueError } from '../engine/errors.js';
import { bearerKey, unknownKey } from './auth.js';
import { controlRoutes } from './control-routes.js';
import { serveOperation } from './operations.js';
import type { SimulatorPort } from './port.js';
import { HttpError, jsonResponse } from './responses.js';
import { matchRoute, methodNotAllowed, notFound } from './router.js';
import { venueRoutes } from './venue-routes.js';

/**
 * The `dropResponse` fault: the request was applied but its answer never arrives. In process this
 * is a rejection shaped like undici's `fetch failed`; the node server destroys the socket instead.
 */
export class DroppedResponseError extends TypeError {
  /** Marks the fault, so that the msw handlers answer a network error. */
  readonly dropped = true;
  /**
   * Made by the simulator's handler.
   * @internal
   */
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

/** `/_sim/`: no auth, no faults; the platform's simulator-only endpoints first. */
async function control(port: SimulatorPort, req: Request, method: string, path: string): Promise<Response> {
  const platformRes = await port.platform.handleControl(req);
  if (platformRes) return platformRes;
  const m = matchRoute(controlRoutes, path);
  if (!m) throw notFound(method, path);
  const h = m.methods[method];
  if (!h) throw methodNotAllowed(m.methods, method, path);
  return h(port.control, req, m.params);
}

/** Auth, rate limit and the request faults: the entity calling, and whether its answer is dropped. */
async function admit(port: SimulatorPort, req: Request): Promise<{ entityId: string; drop: boolean }> {
  const { admission } = port;
  const key = bearerKey(req);
  const entity = admission.entityForApiKey(key);
  if (!entity) throw unknownKey();
  const wait = admission.throttle(key);
  if (wait > 0) {
    const seconds = Math.max(1, Math.ceil(wait / 1000));
    throw new HttpError(429, -1, `Rate limit exceeded; retry after ${seconds} s`, undefined, {
      'retry-after': String(seconds),
    });
  }
  const faults = admission.faults;
  if (faults.latencyMs) await sleep(faults.latencyMs);
  if (faults.errorRate && admission.random() < faults.errorRate)
    throw new HttpError(503, -1, 'Simulated outage (fault injection); the request was not applied');
  return { entityId: entity.entityId, drop: admission.takeDrop() };
}

async function route(port: SimulatorPort, req: Request, url: URL): Promise<{ res: Response; drop: boolean }> {
  const path = url.pathname;
  const method = req.method.toUpperCase();
  if (path.startsWith('/_sim/')) return { res: await control(port, req, method, path), drop: false };
  const isPlatform = PLATFORM_PREFIXES.some((p) => path === p || path.startsWith(p));
  const m = isPlatform ? undefined : matchRoute(venueRoutes, path);
  if (!isPlatform && !m) throw notFound(method, path);
  const { entityId, drop } = await admit(port, req);
  if (!m) {
    const res = await port.platform.handle(req, { entityId });
    if (!res) throw notFound(method, path);
    return { res, drop };
  }
  const operation = m.methods[method];
  if (!operation) throw methodNotAllowed(m.methods, method, path);
  // Ineligibility answers before the body is read or validated, on every venue path.
  port.venue.assertEligible(entityId);
  const res = await serveOperation(operation, { venue: port.venue, req, url, entityId, params: m.params });
  return { res, drop };
}

/** The one web handler: node:http, the in-process mock transport and msw all call this. */
export async function handleRequest(port: SimulatorPort, req: Request): Promise<Response> {
  const requestId = requestIdFor(req.headers.get('x-request-id'));
  let res: Response;
  let drop = false;
  try {
    const url = new URL(req.url);
    ({ res, drop } = await route(port, req, url));
  } catch (err) {
    const known = toHttpError(err);
    if (known) res = known.toResponse();
    else {
      port.logger.error(`unexpected error handling ${req.method} ${req.url} (${requestId})`, err);
      res = jsonResponse(500, { code: -1, message: 'Internal simulator error' });
    }
  } finally {
    port.afterRequest();
  }
  if (drop) throw new DroppedResponseError();
  const headers = new Headers(res.headers);
  headers.set('x-request-id', requestId);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
