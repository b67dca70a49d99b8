import { HttpError } from './responses.js';

/** Matches a path against route templates with `{name}` segments; exact templates win. */
export interface RouteMatch<T> {
  methods: Partial<Record<string, T>>;
  params: Record<string, string>;
}

/** Path template (`/v1/match/orders/{id}`) -> method -> what serves it. */
export type RouteTable<T> = Record<string, Partial<Record<string, T>>>;

export function matchRoute<T>(table: RouteTable<T>, path: string): RouteMatch<T> | undefined {
  const exact = table[path];
  if (exact) return { methods: exact, params: {} };
  const parts = path.split('/');
  for (const [template, methods] of Object.entries(table)) {
    if (!template.includes('{')) continue;
    const tparts = template.split('/');
    if (tparts.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < tparts.length && ok; i++) {
      const t = tparts[i] ?? '';
      const p = parts[i] ?? '';
      if (t.startsWith('{') && t.endsWith('}')) {
        if (p === '') ok = false;
        else params[t.slice(1, -1)] = safeDecode(p);
      } else ok = t === p;
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

/** 405 code -1 with `Allow`: the path exists, the method does not (venue, platform and `/_sim/` alike). */
export function methodNotAllowed(methods: object, method: string, path: string): HttpError {
  const allow = Object.keys(methods).join(', ');
  return new HttpError(405, -1, `${method} is not allowed on ${path}`, undefined, { allow });
}
