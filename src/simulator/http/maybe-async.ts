/**
 * Values ready now or later. Over node:http most requests need nothing awaited (the body is read
 * before dispatch, the engine is synchronous), yet an async function costs a Promise and a
 * microtask per level even then: the request path's steps return the value when they have it and
 * a Promise only where something is awaited (a web Request's body stream, the latency fault, a
 * platform or control route), chained with {@link andThen}. Issue 23: with node-body's read and
 * the per-request cuts in router, auth and access, this took the server from 0.50x to 0.75x a
 * bare node:http server's rate on GET /v1/match/orders/{id}, and from 0.38x to 0.58x on
 * POST /v1/match/orders/modify (`bench/serve.ts --before`, one run, quiet machine).
 */
export type MaybeAsync<T> = T | Promise<T>;

/**
 * `f(value)`: now when `value` is ready, else once its Promise fulfils. A throw in `f` is a throw
 * on the synchronous path and a rejection on the other, so callers handle both alike.
 */
export function andThen<T, R>(value: MaybeAsync<T>, f: (value: T) => MaybeAsync<R>): MaybeAsync<R> {
  return value instanceof Promise ? value.then(f) : f(value);
}
