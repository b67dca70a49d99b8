/**
 * How a request and a body become a cassette's values: the recorder writes its requests so and a
 * replay reads a live request so, to match them; the probe reads the simulator's answers so. A file
 * of its own (as cassette-redact.ts): esbuild assigns whole files to chunks, and only the recording
 * chunk, the testing layer and the simulator need it, never the main bundle.
 */
import type { CassetteJson, CassetteRequest } from './cassette.js';

/** A body as a cassette holds it: null when empty, its JSON when it parses, else the text itself. */
export function cassetteBody(text: string | undefined): CassetteJson {
  if (text === undefined || text === '') return null;
  try {
    return JSON.parse(text) as CassetteJson;
  } catch {
    return text;
  }
}

/**
 * A request as a cassette names it: the method, the path below `basePath` (the base URL's path, ''
 * for an origin) without query, the query by name (a repeated name as an array) and the body. The
 * recorder writes its requests so, and a replay reads a live request so, to match them.
 */
export function cassetteRequest(
  method: string,
  url: string,
  basePath: string,
  body: string | undefined,
): CassetteRequest {
  const { pathname, searchParams } = new URL(url);
  const path = basePath && pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : pathname;
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(searchParams.keys())) {
    const values = searchParams.getAll(name);
    query[name] = values.length === 1 ? (values[0] as string) : values;
  }
  return { method: method.toUpperCase(), path, query, body: cassetteBody(body) };
}
