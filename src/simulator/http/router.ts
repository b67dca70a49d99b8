/** Matches a path against route templates with `{name}` segments; exact templates win. */
export interface RouteMatch<T> {
  methods: Partial<Record<string, T>>;
  params: Record<string, string>;
}

export function matchRoute<T>(
  table: Record<string, Partial<Record<string, T>>>,
  path: string,
): RouteMatch<T> | undefined {
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
