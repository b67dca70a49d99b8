/**
 * openapi/match-venue.yaml -> src/generated/validators.ts: one check (written in src/validation/)
 * per component an operation sends or receives. Client and simulator both run these checks, so a
 * rule of the document has one home. Messages come from the document (`x-rule`,
 * `x-pattern-message`...) or the library's default wording; the emitter fails on any construct it
 * does not know, so no rule of the YAML goes unenforced.
 */
import { isAllowedUrl } from '../src/validation/url.js';
import { emitTest, type TestEmitter } from './emit-predicates.js';
import { checkDiscriminator, checkKeywords, type EndpointInfo } from './openapi-document.js';
import {
  collectRefs,
  componentName,
  decimalChecks,
  FORMAT_REGEX,
  fail,
  indent,
  integerBounds,
  propertyKey,
  regexLiteral,
  rulePattern,
  type Schema,
  type SchemaObject,
  str,
  urlRule,
} from './openapi-source.js';

/** What the driver knows of the document and hands over. */
export interface ValidatorInput {
  schemas: Record<string, SchemaObject>;
  /** Component names, each after those it refers to. */
  order: string[];
  /** Components reachable from a response: their objects keep unknown keys. */
  tolerant: Set<string>;
  endpoints: EndpointInfo[];
}

interface Ctx {
  tolerant: boolean;
  coerce: boolean;
}

function rulesList(rules: string[]): string {
  return rules.length === 0 ? '' : `, [${rules.join(', ')}]`;
}

function emitString(schema: SchemaObject): string {
  const rules: string[] = [];
  let head: string;
  const decimal = decimalChecks(schema);
  const pattern = rulePattern(schema);
  const url = urlRule(schema, isAllowedUrl);
  if (url) {
    // The pattern is the whole rule, and the URL must parse as fetch will read it: one message.
    head = 'c.string(messages()';
    rules.push(`c.url(${regexLiteral(url.pattern)}, ${str(url.message)})`);
  } else if (decimal) {
    const syntax = regexLiteral(decimal.syntax);
    head = 'c.string(messages()';
    rules.push(`c.pattern(${syntax}, ${str(decimal.syntaxMessage)})`);
    rules.push(
      `c.refine(\n  (value: string) => !${syntax}.test(value) || ${regexLiteral(decimal.pattern)}.test(value),\n  ${str(decimal.rule)},\n)`,
    );
  } else if (pattern !== undefined) {
    const message = schema['x-pattern-message'] ?? `must match the pattern ${pattern}`;
    head = 'c.string(messages()';
    rules.push(`c.pattern(${regexLiteral(pattern)}, ${str(message)})`);
  } else if (schema.format === 'uuid') {
    head = `c.format('uuid', ${FORMAT_REGEX.uuid}, messages('must be a UUID')`;
  } else if (schema.format === 'date-time') {
    head = `c.format('date-time', ${FORMAT_REGEX['date-time']}, messages('must be an ISO 8601 date-time')`;
  } else head = 'c.string(messages()';
  if (schema.minLength !== undefined) {
    const n = schema.minLength;
    rules.push(`c.minLength(${n}, ${str(`must be at least ${n} character${n === 1 ? '' : 's'} long`)})`);
  }
  return `${head}${rulesList(rules)})`;
}

function emitInteger(schema: SchemaObject, ctx: Ctx): string {
  const rules: string[] = [];
  const { minimum, maximum } = integerBounds(schema);
  if (minimum !== undefined) rules.push(`c.bound('min', ${minimum})`);
  if (maximum !== undefined) rules.push(`c.bound('max', ${maximum})`);
  const map = ctx.coerce ? `typeMessage('must be an integer')` : 'messages()';
  const out = `c.int(${map}${rulesList(rules)})`;
  return ctx.coerce ? `c.preprocess(integerText, ${out})` : out;
}

function emitObject(schema: SchemaObject, ctx: Ctx): string {
  const properties = schema.properties ?? fail('an object without properties has no validator');
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(properties).map(([key, property]) => {
    let expr: string;
    if (property === false) {
      const message = schema['x-forbidden-message'] ?? 'must be omitted';
      expr = `c.optional(c.never(c.always(${str(message)})))`;
    } else {
      expr = emitSchema(property, ctx);
      const hasDefault = typeof property === 'object' && property.default !== undefined;
      if (!required.has(key) && !hasDefault) expr = `c.optional(${expr})`;
    }
    return `  ${propertyKey(key)}: ${indent(expr, '  ')},`;
  });
  const keys =
    schema.additionalProperties === false
      ? 'strict'
      : schema.additionalProperties === true || ctx.tolerant
        ? 'loose'
        : 'strip';
  const rules: string[] = [];
  const order = schema['x-date-order'];
  if (order) {
    const from = `value.${order.from}`;
    const to = `value.${order.to}`;
    rules.push(
      `c.refine(\n  (value: Record<string, string | undefined>) =>\n    ${from} === undefined || ${to} === undefined || !(Date.parse(${to}) < Date.parse(${from})),\n  ${str(order.rule)},\n  [${str(order.to)}],\n)`,
    );
  }
  return `c.object(\n  {\n  ${indent(lines.join('\n'), '  ')}\n  },\n  '${keys}',\n  messages()${rules.length ? `,\n  [${rules.join(', ')}]` : ''},\n)`;
}

function emitSchema(schema: Schema, ctx: Ctx): string {
  if (schema === true) return 'c.unknown';
  if (schema === false) fail('a false schema is only supported as an object property');
  checkKeywords(schema);
  if (schema.$ref !== undefined) return componentName(schema.$ref);
  const union = schema.oneOf ?? schema.anyOf;
  if (union) {
    const isNull = (branch: Schema) => typeof branch === 'object' && branch.type === 'null';
    const others = union.filter((branch) => !isNull(branch));
    const first = others[0];
    if (others.length !== union.length) {
      if (others.length !== 1 || !first) fail('only "X or null" unions may contain null');
      return `c.nullable(${emitSchema(first, ctx)})`;
    }
    if (!schema.discriminator) fail('only discriminated unions have validators');
    const options = union.map((branch) => emitSchema(branch, ctx)).join(', ');
    const error = schema['x-rule'] ? `, c.always(${str(schema['x-rule'])})` : '';
    return `c.discriminatedUnion(${str(schema.discriminator.propertyName)}, [${options}]${error})`;
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const nonNull = types.filter((type) => type !== 'null');
  const nullable = nonNull.length !== types.length;
  const type = nonNull[0];
  let out: string;
  if (schema.enum) {
    const values = schema.enum.map((value) => (typeof value === 'string' ? str(value) : String(value)));
    out = `c.oneOf([${values.join(', ')}], messages())`;
  } else if (type === undefined) {
    if (!nullable) fail(`schema without a type: ${JSON.stringify(schema)}`);
    return 'c.nullValue(messages())';
  } else if (type === 'string') out = emitString(schema);
  else if (type === 'integer') out = emitInteger(schema, ctx);
  else if (type === 'number') out = 'c.number(messages())';
  else if (type === 'boolean') out = 'c.boolean(messages())';
  else if (type === 'array')
    out = `c.array(${emitSchema(schema.items ?? fail('array without items'), ctx)}, messages())`;
  else if (type === 'object') out = emitObject(schema, ctx);
  else fail(`unsupported type ${type}`);
  if (schema.default !== undefined) out = `c.withDefault(${out}, ${JSON.stringify(schema.default)})`;
  return nullable ? `c.nullable(${out})` : out;
}

function refsOf(node: unknown, into: Set<string>): void {
  for (const ref of collectRefs(node, [])) into.add(componentName(ref));
}

const HELPERS = `const { messages, typeMessage } = c;

/** A query string's integer: decimal digits (optionally signed) become a number, anything else is left for the integer check. */
function integerText(value: unknown): unknown {
  return typeof value === 'string' && /^-?\\d+$/.test(value) ? Number(value) : value;
}

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON Schema's minLength: at least \`n\` code points. */
function minLength(v: string, n: number): boolean {
  return v.length >= n * 2 || (v.length >= n && [...v].length >= n);
}
`;

/** The content of src/generated/validators.ts (after `headerLine`). */
export function generateValidators(input: ValidatorInput, headerLine: string): string {
  // Only what an operation sends or receives, and what that refers to.
  const needed = new Set<string>();
  const visit = (name: string) => {
    if (needed.has(name)) return;
    needed.add(name);
    const deps = new Set<string>();
    refsOf(input.schemas[name] ?? fail(`unknown component ${name}`), deps);
    for (const dep of deps) visit(dep);
  };
  for (const endpoint of input.endpoints) {
    for (const expr of [endpoint.query, endpoint.body, endpoint.responseData]) {
      for (const match of (expr ?? '').matchAll(/\b([A-Z][A-Za-z0-9]*)\b/g)) if (match[1]) visit(match[1]);
    }
  }
  const em: TestEmitter = { decls: [], regexes: new Map(), tested: new Set(), counter: 0 };
  const blocks = input.order
    .filter((name) => needed.has(name))
    .map((name) => {
      const schema = input.schemas[name] ?? fail(`unknown component ${name}`);
      checkDiscriminator(schema, input.schemas);
      const tolerant = input.tolerant.has(name);
      const expr = emitSchema(schema, { tolerant, coerce: schema['x-query'] === true });
      const test = tolerant ? emitTest(schema, em, 'v', true, input.schemas) : null;
      const type = `export type ${name} = models.${name};\n`;
      if (test === null) return `export const ${name}: c.Check<models.${name}> = ${expr};\n${type}`;
      em.tested.add(name);
      const predicate = `function is${name}(v: any): boolean {\n  return ${test};\n}\n`;
      return `${predicate}\nexport const ${name}: c.Check<models.${name}> = c.withTest(${expr}, is${name});\n${type}`;
    });
  return `${headerLine}// One check per component an operation sends or receives, written in the validation library
// (src/validation/); the endpoint table (endpoints.ts) names them per operation.
import * as c from '../validation/index.js';
import type * as models from './models.js';

${HELPERS}
${em.decls.length ? `// Fast-path predicates of the response components (see scripts/emit-predicates.ts).\n${em.decls.join('\n\n')}\n` : ''}
${blocks.join('\n')}`;
}
