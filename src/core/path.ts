import { InvalidArgumentError } from './base-error.js';

// RFC 3986 pchar: unreserved, sub-delims, ':' and '@' may stay as they are inside a segment.
const UNSAFE_IN_SEGMENT = /[^A-Za-z0-9\-._~!$&'()*+,;=:@]+/g;
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?=\/|$)/i;

/** Percent-encodes a value for use as one path segment ('/' and '?' included). */
export function encodePathSegment(value: string): string {
  return value.replace(UNSAFE_IN_SEGMENT, encodeURIComponent);
}

/**
 * Tagged template for request paths: each interpolated value is encoded as a single segment,
 * so an id like `../account` or `a/b?x` cannot change which endpoint is called.
 *
 *     path`/v1/match/orders/${orderId}`
 */
export function path(statics: TemplateStringsArray, ...values: readonly unknown[]): string {
  return joinPath(statics, values);
}

/**
 * The `path` tag's work on plain arrays: `statics[i]`, then `values[i]` encoded as one segment, and
 * so on. Also fills an endpoint's `{name}` placeholders (see {@link PathTemplate}).
 */
export function joinPath(statics: readonly string[], values: readonly unknown[]): string {
  let out = statics[0] ?? '';
  // Encoding turns '%' and '/' into escapes, so only a literal '.' can make a dot segment; the
  // regex runs only when one is present.
  let dotted = false;
  for (const part of statics) dotted ||= part.includes('.');
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === undefined || value === null || value === '') {
      throw new InvalidArgumentError(`Path parameter ${i + 1} is empty in ${statics.join('{}')}`);
    }
    const text = String(value);
    dotted ||= text.includes('.');
    out += encodePathSegment(text) + (statics[i + 1] ?? '');
  }
  if (dotted && DOT_SEGMENT.test(out)) {
    throw new InvalidArgumentError(`Path parameters produce a '.' or '..' segment: ${out}`);
  }
  return out;
}

/** An endpoint path such as `/v1/match/orders/{id}`, split once into its statics and parameter names. */
export class PathTemplate {
  readonly statics: readonly string[];
  readonly names: readonly string[];

  constructor(template: string) {
    const parts = template.split(/\{([^{}]+)\}/);
    this.statics = parts.filter((_, i) => i % 2 === 0);
    this.names = parts.filter((_, i) => i % 2 === 1);
  }

  /** The path with each placeholder filled by its parameter, encoded as one segment. */
  fill(params: Readonly<Record<string, unknown>> | undefined): string {
    const values = this.names.map((name) => params?.[name]);
    return joinPath(this.statics, values);
  }
}
