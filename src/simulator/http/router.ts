import { HttpError } from './responses.js';

/** Matches a path against route templates with `{name}` segments; exact templates win. */
export interface RouteMatch<T> {
  methods: Partial<Record<string, T>>;
  params: Record<string, string>;
}

/** Path template (`/v1/match/orders/{id}`) -> method -> what serves it. */
export type RouteTable<T> = Record<string, Partial<Record<string, T>>>;

/** A template with `{name}` segments, split once: a literal segment, or the name of a parameter. */
interface Template<T> {
  methods: Partial<Record<string, T>>;
  segments: { literal: string; param?: string }[];
}

// Route tables are built once at module load and never change, so each is split once, on its first
// match. Issue 23: Object.entries and a split of every template per request were 0.9 us of each
// GET /v1/match/orders/{id} (micro-benchmark; 3% of the server's busy time under load), now 0.15 us.
const compiled = new WeakMap<object, Template<unknown>[]>();

function templatesOf<T>(table: RouteTable<T>): Template<T>[] {
  const known = compiled.get(table);
  if (known) return known as Template<T>[];
  const templates: Template<T>[] = [];
  for (const [template, methods] of Object.entries(table)) {
    if (!template.includes('{')) continue;
    const segments = template
      .split('/')
      .map((t) =>
        t.startsWith('{') && t.endsWith('}') ? { literal: t, param: t.slice(1, -1) } : { literal: t },
      );
    templates.push({ methods, segments });
  }
  compiled.set(table, templates);
  return templates;
}

/**
 * `table` with each handler made by `bind` (a refusal, `HEAD: undefined`, stays one): how a binding
 * hands the dispatch routes closed over what they serve with (platform/index.ts).
 */
export function mapRoutes<T, U>(table: RouteTable<T>, bind: (handler: T) => U): RouteTable<U> {
  const mapped: RouteTable<U> = {};
  for (const [template, methods] of Object.entries(table)) {
    const bound: Partial<Record<string, U>> = {};
    for (const [method, handler] of Object.entries(methods))
      bound[method] = handler === undefined ? undefined : bind(handler);
    mapped[template] = bound;
  }
  return mapped;
}

export function matchRoute<T>(table: RouteTable<T>, path: string): RouteMatch<T> | undefined {
  const exact = table[path];
  if (exact) return { methods: exact, params: {} };
  const parts = path.split('/');
  for (const { methods, segments } of templatesOf(table)) {
    if (segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < segments.length && ok; i++) {
      const t = segments[i] as Template<T>['segments'][number];
      const p = parts[i] ?? '';
      if (t.param !== undefined) {
        if (p === '') ok = false;
        // Without a `%` there is nothing to decode (decodeURIComponent would return it as is).
        else params[t.param] = p.includes('%') ? safeDecode(p) : p;
      } else ok = t.literal === p;
    }
    if (ok) return { methods, params };
  }
  return undefined;
}

/** A path segment percent-decoded; a malformed escape stays raw, so it fails the id checks (not a 500). */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** 404 code -1: no route has this path. */
export function notFound(method: string, path: string): HttpError {
  return new HttpError(404, -1, `No route for ${method} ${path}`);
}

/**
 * What serves `method` on a path. HEAD is GET without the body (RFC 9110 9.3.2): GET's handler
 * serves it and the binding drops the body, unless the path names HEAD itself; `HEAD: undefined`
 * refuses it, for a GET that changes state (the SNS SubscribeURL). Own keys only: a method named
 * like an Object.prototype member is no route.
 */
export function handlerFor<T>(methods: Partial<Record<string, T>>, method: string): T | undefined {
  if (Object.hasOwn(methods, method)) return methods[method];
  return method === 'HEAD' && Object.hasOwn(methods, 'GET') ? methods.GET : undefined;
}

/** The `Allow` of a path: its methods in table order, HEAD after GET where GET serves it. */
export function allowOf(methods: Partial<Record<string, unknown>>): string {
  const allow: string[] = [];
  for (const [method, handler] of Object.entries(methods)) {
    if (handler === undefined) continue;
    allow.push(method);
    if (method === 'GET' && !Object.hasOwn(methods, 'HEAD')) allow.push('HEAD');
  }
  return allow.join(', ');
}

/**
 * 405 code -1 with `Allow`: the path exists, the method does not (venue, platform, `/_sim/` and the
 * dashboard alike). Any method the server parses gets it, TRACE and OPTIONS (outside a CORS
 * preflight) included: none is served beyond the table's.
 */
export function methodNotAllowed(
  methods: Partial<Record<string, unknown>>,
  method: string,
  path: string,
): HttpError {
  return new HttpError(405, -1, `${method} is not allowed on ${path}`, undefined, {
    allow: allowOf(methods),
  });
}
