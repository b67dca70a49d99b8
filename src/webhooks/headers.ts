/** Request headers in any of the shapes the adapters see: WHATWG `Headers` or node's header object. */
export type HeadersLike = Headers | Record<string, string | readonly string[] | undefined>;

/** Case-insensitive header lookup; a repeated node header yields its first value. */
export function getHeader(headers: HeadersLike, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value[0];
  }
  return undefined;
}
