/**
 * Routes keyed by the contract's operation ids: method, path and success status come from the
 * generated endpoint table (src/generated/endpoints.ts), never restated by a route.
 */
import { type EndpointDefinition, endpoints, type OperationId } from '../../generated/endpoints.js';
import type { ResponseOf } from '../engine/venue-operations.js';
import { assertNoBody, type BodySource } from './body.js';
import { andThen, type MaybeAsync } from './maybe-async.js';
import { type Answer, answerToResponse, jsonAnswer } from './responses.js';
import type { RouteTable } from './router.js';

/** A success answer's `data` with extra response headers. */
export class Reply<T = unknown> {
  constructor(
    readonly data: T,
    readonly headers: Record<string, string>,
  ) {}
}

/** Serves one operation: returns the success `data` (or a {@link Reply}); throws HttpError/VenueError otherwise. */
export type OperationHandler<C> = (request: C) => unknown;

export type OperationHandlers<C> = Partial<Record<OperationId, OperationHandler<C>>>;

/**
 * A handler for each of `Ids`, each answering its operation's success `data` as the endpoint table
 * types it: leaving one out, or answering another shape, does not compile.
 */
export type TypedHandlers<C, Ids extends OperationId> = {
  [K in Ids]: (request: C) => Awaitable<ResponseOf<K> | Reply<ResponseOf<K>>>;
};

type Awaitable<T> = T | Promise<T>;

export interface OperationRoute<C> {
  operationId: OperationId;
  endpoint: EndpointDefinition;
  handler: OperationHandler<C>;
}

/**
 * The route table of `handlers`: each operation at the path and method the contract gives it. A
 * path's methods keep the handlers' order (it is the order `Allow` lists them in).
 */
export function routesByOperation<C>(handlers: OperationHandlers<C>): RouteTable<OperationRoute<C>> {
  const table: RouteTable<OperationRoute<C>> = {};
  for (const [operationId, handler] of Object.entries(handlers) as [OperationId, OperationHandler<C>][]) {
    const endpoint: EndpointDefinition = endpoints[operationId];
    table[endpoint.path] ??= {};
    (table[endpoint.path] as Partial<Record<string, OperationRoute<C>>>)[endpoint.method] = {
      operationId,
      endpoint,
      handler,
    };
  }
  return table;
}

/**
 * Runs the operation and answers with the contract's success status: `{data}`, or no body when
 * the contract's success response has none (204). An operation the contract gives no request body
 * refuses one (400 code 2) before it runs: its handler never reads the body, so nothing else would.
 * Synchronous when the body is already read and the handler answers at once (maybe-async.ts).
 */
export function runOperation<C extends { req: BodySource }>(
  route: OperationRoute<C>,
  request: C,
): MaybeAsync<Answer> {
  if (route.endpoint.body === null) {
    const refused = assertNoBody(request.req);
    if (refused instanceof Promise) return refused.then(() => answerOperation(route, request));
  }
  return answerOperation(route, request);
}

function answerOperation<C>(route: OperationRoute<C>, request: C): MaybeAsync<Answer> {
  return andThen(route.handler(request), (result) => successAnswer(route, result));
}

function successAnswer<C>(route: OperationRoute<C>, result: unknown): Answer {
  const { data, headers } = result instanceof Reply ? result : { data: result, headers: {} };
  const status = route.endpoint.successStatus;
  if (route.endpoint.responseData === null) return { status, headers, body: null };
  return jsonAnswer(status, { data }, headers);
}

/** {@link runOperation} as a web Response (the platform routes answer with one). */
export async function serveOperation<C extends { req: BodySource }>(
  route: OperationRoute<C>,
  request: C,
): Promise<Response> {
  return answerToResponse(await runOperation(route, request));
}
