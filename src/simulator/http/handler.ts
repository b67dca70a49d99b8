import { sleep } from '../../contract/retry-policy.js';
import { ClockJumpInProgressError, ClockJumpTooLargeError } from '../clock/clock-jump.js';
import { VenueError } from '../engine/errors.js';
import { bearerKey, unknownKey } from './auth.js';
import type { BodySource } from './body.js';
import { andThen, type MaybeAsync } from './maybe-async.js';
import { runOperation } from './operations.js';
import type { PlatformHandler, SimulatorPort } from './port.js';
import { type ResolvedRoute, resolveRoute } from './resolve-route.js';
import { type Answer, answerToResponse, HttpError, invalidRequest, jsonAnswer } from './responses.js';

export type { ResolvedRoute } from './resolve-route.js';

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

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The caller's `x-request-id` when it is a short token, else a fresh `req_<uuid>`. */
export function requestIdFor(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) ? incoming : `req_${crypto.randomUUID()}`;
}

function toHttpError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof ClockJumpInProgressError) return new HttpError(409, -1, err.message);
  if (err instanceof ClockJumpTooLargeError)
    return invalidRequest(err.message, [
      { error: 'invalid_value', location: 'ms', message: err.rule, invalidValue: String(err.ms) },
    ]);
  if (err instanceof VenueError) {
    // Code 2 always carries the extended body, whichever layer found the fault.
    const f = err.field;
    const errors = f ? [{ error: 'invalid_value', ...f }] : undefined;
    return new HttpError(err.status, err.code, err.message, errors);
  }
  return undefined;
}

/**
 * One request as the routes read it, whichever binding received it. The web handler wraps a
 * Request; node:http builds this from the node request without a Request, and `web()` builds one
 * only for the routes that take one (`/_sim/` and the platform), so both share every rule below.
 */
export interface Inbound {
  /** Upper case. */
  readonly method: string;
  readonly path: string;
  /** The query string, `?` included ('' without one). */
  readonly search: string;
  header(name: string): string | null;
  readonly body: BodySource;
  web(): Request;
}

/** An answer before its `x-request-id`: plain data from the venue routes, a Response from the others. */
export type Outcome = Answer | Response;

interface Admitted {
  entityId: string;
  drop: boolean;
}

/**
 * Auth, rate limit and the request faults: the entity calling, and whether its answer is dropped.
 * Asynchronous only with the latency fault (maybe-async.ts).
 */
function admit(port: SimulatorPort, authorization: string | null): MaybeAsync<Admitted> {
  const { admission } = port;
  const key = bearerKey(authorization);
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
  if (faults.latencyMs)
    return sleep(faults.latencyMs).then(() => afterLatency(port, faults, entity.entityId));
  return afterLatency(port, faults, entity.entityId);
}

/** The error-rate draw and the drop, after the latency fault (with the faults read before it). */
function afterLatency(port: SimulatorPort, faults: SimulatorPort['admission']['faults'], entityId: string) {
  if (faults.errorRate && port.admission.random() < faults.errorRate)
    throw new HttpError(503, -1, 'Simulated outage (fault injection); the request was not applied');
  return { entityId, drop: port.admission.takeDrop() };
}

interface Routed {
  res: Outcome;
  drop: boolean;
}

/**
 * The resolved route's answer; synchronous for a venue route when nothing needs awaiting
 * (maybe-async.ts). The route came first: 404 and 405 before the key, the faults and the body.
 */
function route(port: SimulatorPort, req: Inbound, found: ResolvedRoute): MaybeAsync<Routed> {
  // `/_sim/`: no auth, no faults.
  if (found.kind === 'control') return controlAnswer(found.handler(port.control, req.web(), found.params));
  if (found.kind === 'platform-control') return controlAnswer(found.handler(req.web()));
  return andThen(admit(port, req.header('authorization')), ({ entityId, drop }) => {
    if (found.kind === 'platform') return platform(req, found.handler, found.params, entityId, drop);
    // Ineligibility answers before the body is read or validated, on every venue path.
    port.venue.assertEligible(entityId);
    const { params } = found;
    const request = { venue: port.venue, req: req.body, search: req.search, entityId, params };
    return andThen(runOperation(found.operation, request), (res) => ({ res, drop }));
  });
}

/** A `/_sim/` route's answer: never dropped (the faults are not applied there). */
async function controlAnswer(res: Response | Promise<Response>): Promise<Routed> {
  return { res: await res, drop: false };
}

async function platform(
  req: Inbound,
  handler: PlatformHandler,
  params: Record<string, string>,
  entityId: string,
  drop: boolean,
): Promise<Routed> {
  return { res: await handler(req.web(), { entityId, params }), drop };
}

/**
 * The one dispatch behind both bindings, on the route (or the 404/405) its binding resolved once
 * (resolve-route.ts): auth, rate limit, faults and validation. Throws DroppedResponseError for the
 * dropResponse fault; the caller adds `requestId` to the answer. Returns the answer itself when
 * nothing was awaited (node:http then writes it at once), else a Promise of it (maybe-async.ts);
 * either way `afterRequest` runs once the route is done.
 */
export function dispatch(
  port: SimulatorPort,
  req: Inbound,
  requestId: string,
  found: ResolvedRoute | HttpError,
): MaybeAsync<Outcome> {
  if (found instanceof HttpError) return settle(port, req, requestId, undefined, found);
  let routed: MaybeAsync<Routed>;
  try {
    routed = route(port, req, found);
  } catch (err) {
    return settle(port, req, requestId, undefined, err);
  }
  if (routed instanceof Promise)
    return routed.then(
      (done) => settle(port, req, requestId, done),
      (err: unknown) => settle(port, req, requestId, undefined, err),
    );
  return settle(port, req, requestId, routed);
}

/** The route's answer, or the error answer for what it threw; DroppedResponseError when dropped. */
function settle(
  port: SimulatorPort,
  req: Inbound,
  requestId: string,
  routed: Routed | undefined,
  err?: unknown,
): Outcome {
  let res: Outcome;
  try {
    if (routed) res = routed.res;
    else {
      const known = toHttpError(err);
      if (known) res = known.toAnswer();
      else {
        port.logger.error(`unexpected error handling ${req.method} ${req.path} (${requestId})`, err);
        res = jsonAnswer(500, { code: -1, message: 'Internal simulator error' });
      }
    }
  } finally {
    port.afterRequest();
  }
  if (routed?.drop) throw new DroppedResponseError();
  return res;
}

/** The one web handler: the in-process mock transport and msw call this; node:http shares dispatch. */
export async function handleRequest(port: SimulatorPort, req: Request): Promise<Response> {
  const requestId = requestIdFor(req.headers.get('x-request-id'));
  const url = new URL(req.url);
  const inbound: Inbound = {
    method: req.method.toUpperCase(),
    path: url.pathname,
    search: url.search,
    header: (name) => req.headers.get(name),
    body: req,
    web: () => req,
  };
  // The route first, once: 404 and 405 before the key, the faults and the body.
  const route = resolveRoute(port.platform, inbound.method, inbound.path);
  const res = await dispatch(port, inbound, requestId, route);
  // HEAD: the GET's status and headers, no body (node:http drops it on its own).
  const head = inbound.method === 'HEAD';
  if (!(res instanceof Response)) {
    const headers = { ...res.headers, 'x-request-id': requestId };
    return answerToResponse({ ...res, headers, body: head ? null : res.body });
  }
  const headers = new Headers(res.headers);
  headers.set('x-request-id', requestId);
  if (head) await res.body?.cancel();
  return new Response(head ? null : res.body, { status: res.status, statusText: res.statusText, headers });
}
