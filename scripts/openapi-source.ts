/**
 * What every emitter (scripts/emit-*.ts) reads from a schema of the OpenAPI document, and the small
 * pieces of code-writing they share, so that the outputs of one document cannot drift on how they
 * read it.
 */

// ---- the subset of OpenAPI 3.1 the contract uses ------------------------------------------------

/** `x-decimal`: the value is a decimal string of at most `maxDecimals` places; `pattern` holds the rest. */
export interface DecimalRule {
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
  /** Set on the derived query components (openapi-derived.ts): integers arrive as text. */
  'x-query'?: boolean;
  /** Properties that must be absent, on an object with `additionalProperties: false`. */
  'x-forbidden-properties'?: string[];
  'x-forbidden-message'?: string;
  'x-url'?: boolean;
}
export type Schema = SchemaObject | boolean;

/**
 * An integer's declared bounds beyond what every integer check keeps anyway (the exactly
 * representable range, plus or minus 2^53-1): the document declares both bounds of every integer,
 * so that other tools read the whole rule; the generated checks test only the ones that narrow it.
 */
export function integerBounds(schema: SchemaObject): { minimum?: number; maximum?: number } {
  const { minimum, maximum } = schema;
  if (minimum === undefined || maximum === undefined)
    fail(`an integer must declare minimum and maximum: ${JSON.stringify(schema)}`);
  if (minimum < Number.MIN_SAFE_INTEGER || maximum > Number.MAX_SAFE_INTEGER || minimum > maximum)
    fail(
      `integer bounds outside plus or minus 2^53-1, which every integer check keeps: ${JSON.stringify(schema)}`,
    );
  return {
    ...(minimum > Number.MIN_SAFE_INTEGER ? { minimum } : {}),
    ...(maximum < Number.MAX_SAFE_INTEGER ? { maximum } : {}),
  };
}

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

// Strings a decimal pattern must refuse: a pattern accepting one of them would let through what
// the x-pattern-message check refuses, and the document would promise more than the SDK takes.
// Each is a decimal of every common size spoilt one way (sign, exponent, padding, extra places...).
const NOT_DECIMALS = ['0', '1', '100', '100.00', '0.01', '12345600'].flatMap((d) => [
  `-${d}`,
  `+${d}`,
  ` ${d}`,
  `${d} `,
  `0${d}`,
  `.${d}`,
  `${d}.`,
  `${d}e2`,
  `${d}x`,
  d.includes('.') ? `${d}0` : `${d}.000`,
  d.replace(/0/g, 'O'),
  `${d},00`,
  `0x${d}`,
]);

/**
 * The two checks of an `x-decimal` string, in the order they report: `syntax` (a non-negative
 * decimal string of at most maxDecimals places, with x-pattern-message) then `pattern` (the
 * schema's whole rule, with x-rule). Undefined for a schema without `x-decimal`.
 */
export function decimalChecks(
  schema: SchemaObject,
): { syntax: string; syntaxMessage: string; pattern: string; rule: string } | undefined {
  const decimal = schema['x-decimal'];
  if (!decimal) return undefined;
  const keys = Object.keys(decimal);
  if (keys.length !== 1 || !Number.isInteger(decimal.maxDecimals) || decimal.maxDecimals < 1)
    fail(`x-decimal takes only maxDecimals, a positive integer: ${JSON.stringify(decimal)}`);
  const pattern = schema.pattern ?? fail('x-decimal needs a pattern holding the whole rule');
  const syntax = `^(0|[1-9][0-9]*)(\\.[0-9]{1,${decimal.maxDecimals}})?$`;
  const [re, decimalRe] = [new RegExp(pattern), new RegExp(syntax)];
  const accepted = NOT_DECIMALS.filter((value) => re.test(value) && !decimalRe.test(value));
  if (accepted.length > 0)
    fail(`x-decimal pattern ${pattern} accepts non-decimals: ${JSON.stringify(accepted)}`);
  return {
    syntax,
    syntaxMessage: schema['x-pattern-message'] ?? fail('x-decimal needs an x-pattern-message'),
    pattern,
    rule: schema['x-rule'] ?? fail('x-decimal needs an x-rule message'),
  };
}

/**
 * The pattern a `format: uuid` string may carry for tools that treat formats as annotations: any
 * 8-4-4-4-12 hex id, the same rule as the format's check (FORMAT_REGEX.uuid), so it adds no rule of its own.
 */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** The pattern that is a rule of its own: none for a UUID carrying only UUID_PATTERN. */
export function rulePattern(schema: SchemaObject): string | undefined {
  return schema.format === 'uuid' && schema.pattern === UUID_PATTERN ? undefined : schema.pattern;
}

/** Indents every line after the first of `text` by `by`. */
export function indent(text: string, by: string): string {
  return text.replace(/\n/g, `\n${by}`);
}

/** A JSDoc block for `text` (a YAML description), wrapped to ~100 columns, at indentation `pad`. */
export function jsdoc(text: string, pad: string): string {
  const lines: string[] = [];
  for (const paragraph of text
    .trim()
    .replace(/\*\//g, '*\\/')
    .split(/\n\s*\n/)) {
    if (lines.length > 0) lines.push('');
    let line = '';
    for (const word of paragraph.split(/\s+/)) {
      if (line && pad.length + 3 + line.length + 1 + word.length > 100) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  const [only] = lines;
  if (lines.length === 1 && only !== undefined && pad.length + only.length + 7 <= 110)
    return `${pad}/** ${only} */\n`;
  return `${pad}/**\n${lines.map((line) => (line ? `${pad} * ${line}` : `${pad} *`)).join('\n')}\n${pad} */\n`;
}

/**
 * The regular expressions of the string formats the checks enforce, as source literals: `uuid` is
 * any 8-4-4-4-12 hex id (UUID_PATTERN), `date-time` an RFC 3339 date-time with a real calendar date
 * and an offset (`Z` or `+hh:mm`).
 */
export const FORMAT_REGEX: Readonly<Record<'uuid' | 'date-time', string>> = {
  uuid: `/^(${UUID_PATTERN.slice(1, -1)})$/`,
  'date-time': String.raw`/^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d)))$/`,
};

// URLs an `x-url` schema's pattern must not take unless the WHATWG parser reads them too (the
// generated check runs both), so that tools reading only the pattern take what the checks take.
const URL_SAMPLES = [
  'https://hooks.example.com',
  'https://hooks.example.com:8443/v1/in?tenant=7#x',
  'http://localhost:3000/hook',
  'http://127.0.0.1/hook',
  'http://[::1]:8080/',
  'https://[::1/hook',
  'https://[zz]/hook',
  'https://hooks.example.com:99999/',
  'https://exa%zzmple.com',
  'https://exa%00mple.com',
  'https://%2F/x',
  'https:///v1',
  'https://',
];

/** The `x-url` rule of a string schema: its pattern and message; undefined without one. */
export function urlRule(
  schema: SchemaObject,
  accepts: (pattern: RegExp, value: string) => boolean,
): { pattern: string; message: string } | undefined {
  if (schema['x-url'] === undefined) return undefined;
  if (schema['x-url'] !== true) fail('x-url is true: the pattern states the rule');
  const message = schema['x-rule'] ?? fail('x-url needs an x-rule message');
  const source = schema.pattern ?? fail('x-url needs a pattern: the rule as every tool reads it');
  const pattern = new RegExp(source);
  const disagree = URL_SAMPLES.filter((value) => pattern.test(value) !== accepts(pattern, value));
  if (disagree.length > 0) fail(`x-url pattern ${source} takes what a URL parser refuses: ${disagree}`);
  return { pattern: source, message };
}
