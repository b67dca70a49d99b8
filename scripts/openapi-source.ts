/**
 * What both emitters (scripts/generate.ts for the zod schemas and types, scripts/generate-validators.ts
 * for the plain validators) read from the OpenAPI document, and the small pieces of code-writing
 * they share, so that the two outputs of one document cannot drift on how they read it.
 */

// ---- the subset of OpenAPI 3.1 the contract uses ------------------------------------------------

export interface DecimalRule {
  min?: string;
  exclusiveMin?: string;
  multipleOf?: string;
  maxDecimals: number;
}

export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  enum?: (string | number)[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
  'x-pattern-message'?: string;
  'x-decimal'?: DecimalRule;
  'x-rule'?: string;
  'x-date-order'?: { from: string; to: string; rule: string };
  'x-query'?: boolean;
  'x-forbidden-message'?: string;
}
export type Schema = SchemaObject | boolean;

// ---- code-writing helpers -------------------------------------------------------------------------

export function fail(message: string): never {
  throw new Error(`generate: ${message}`);
}

/** A single-quoted TypeScript string literal. */
export const str = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** An object key as written in source: bare when it is an identifier, quoted otherwise. */
export const propertyKey = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : str(key));

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `#/components/schemas/Name` -> `Name`; any other pointer is refused. */
export function componentName(ref: string): string {
  const match = /^#\/components\/schemas\/([A-Za-z0-9]+)$/.exec(ref);
  if (!match?.[1]) fail(`unsupported $ref ${ref} (only whole schema components)`);
  return match[1];
}

/** Every `$ref` string under `node`, in document order. */
export function collectRefs(node: unknown, into: string[]): string[] {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, into);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.push(value);
      else collectRefs(value, into);
    }
  }
  return into;
}

/** A regular-expression literal of `pattern`, failing early on an invalid one. */
export function regexLiteral(pattern: string): string {
  new RegExp(pattern);
  return `/${pattern.replace(/\//g, '\\/')}/`;
}

/** An `x-decimal` bound as an integer number of units of 10^-scale. */
export function decimalUnits(value: string, scale: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  const fraction = match?.[2] ?? '';
  if (!match?.[1] || fraction.length > scale) fail(`bad decimal ${value} in x-decimal`);
  return BigInt(match[1] + fraction.padEnd(scale, '0'));
}

/** Indents every line after the first of `text` by `by`. */
export function indent(text: string, by: string): string {
  return text.replace(/\n/g, `\n${by}`);
}
