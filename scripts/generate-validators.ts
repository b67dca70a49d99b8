/**
 * openapi/match-venue.yaml -> src/generated/validators.ts: plain validators (src/contract/checks.ts)
 * for every component an operation sends or receives, and the endpoint table with them in place of
 * the zod schemas. Called by scripts/generate.ts (`npm run generate`), from the same document.
 *
 * The emitter mirrors generate.ts's zod emitter branch by branch (same messages, same unknown-key
 * rule, same coercion of query integers), so that each validator answers as its zod schema does;
 * test/contract/validators.test.ts checks that on valid and mutated inputs. Like the zod emitter it
 * fails on any construct it does not know.
 */
import { z } from 'zod';
import {
  collectRefs,
  componentName,
  decimalChecks,
  fail,
  indent,
  propertyKey,
  regexLiteral,
  rulePattern,
  type Schema,
  type SchemaObject,
  str,
  UUID_PATTERN,
} from './openapi-source.js';

/** What generate.ts knows of the document and hands over. */
export interface ValidatorInput {
  schemas: Record<string, SchemaObject>;
  /** Component names, each after those it refers to. */
  order: string[];
  /** Components reachable from a response: their objects keep unknown keys. */
  tolerant: Set<string>;
  endpoints: {
    operationId: string;
    method: string;
    path: string;
    successStatus: number;
    idempotent: boolean;
    keyed: boolean;
    pathParams: string[];
    query: string | null;
    body: string | null;
    /** A component name, or `z.array(Name)`. */
    responseData: string | null;
    errorCodes: [number, number[]][];
    specGap: boolean;
  }[];
}

// zod's own patterns for the formats the zod emitter maps to z.guid and z.iso.datetime, read from
// the installed zod, so a validator accepts exactly what its schema does.
const GUID = z.guid()._zod.def.pattern;
const DATETIME = z.iso.datetime({ offset: true })._zod.def.pattern;
const formatLiteral = (re: RegExp | undefined): string =>
  re ? `/${re.source}/${re.flags}` : fail('zod format without a pattern');
// UUID_PATTERN is documentation of the uuid format for other tools; it must be zod's guid rule.
if (GUID?.source !== `^(${UUID_PATTERN.slice(1, -1)})$` || GUID.flags !== '')
  fail(`UUID_PATTERN differs from zod's guid pattern ${GUID}`);

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
  if (decimal) {
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
    head = `c.format(${formatLiteral(GUID)}, messages('must be a UUID')`;
  } else if (schema.format === 'date-time') {
    head = `c.format(${formatLiteral(DATETIME)}, messages('must be an ISO 8601 date-time')`;
  } else head = 'c.string(messages()';
  if (schema.minLength !== undefined) {
    const n = schema.minLength;
    rules.push(`c.minLength(${n}, ${str(`must be at least ${n} character${n === 1 ? '' : 's'} long`)})`);
  }
  return `${head}${rulesList(rules)})`;
}

function emitInteger(schema: SchemaObject, ctx: Ctx): string {
  const rules: string[] = [];
  if (schema.minimum !== undefined) rules.push(`c.bound('min', ${schema.minimum})`);
  if (schema.maximum !== undefined) rules.push(`c.bound('max', ${schema.maximum})`);
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

// ---- fast-path predicates ------------------------------------------------------------------------------
//
// For a response component (whose valid values come back as they are), a plain boolean function
// of straight-line checks: what a valid answer costs on the hot path. It accepts exactly what the
// check accepts (test/contract/validators.test.ts holds both to zod); a value it rejects is run
// through the check, which words the issues.

interface TestEmitter {
  /** Module-level declarations: regexes and helper functions. */
  decls: string[];
  /** Regex literal -> constant name. */
  regexes: Map<string, string>;
  /** Components with a predicate (`is<Name>`). */
  tested: Set<string>;
  counter: number;
}

function regexConst(em: TestEmitter, literal: string): string {
  let name = em.regexes.get(literal);
  if (!name) {
    name = `RE_${em.regexes.size}`;
    em.regexes.set(literal, name);
    em.decls.push(`const ${name} = ${literal};`);
  }
  return name;
}

const access = (v: string, key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${v}.${key}` : `${v}[${str(key)}]`;

let schemaSource: Record<string, SchemaObject> = {};

/** A boolean expression over `v`, true exactly when `schema` accepts it; null when none fits. */
function emitTest(schema: Schema, em: TestEmitter, v: string, tolerant: boolean): string | null {
  if (schema === true) return 'true';
  if (schema === false) return null;
  if (schema.$ref !== undefined) {
    const name = componentName(schema.$ref);
    return em.tested.has(name) ? `is${name}(${v})` : null;
  }
  const union = schema.oneOf ?? schema.anyOf;
  if (union) {
    const isNull = (branch: Schema) => typeof branch === 'object' && branch.type === 'null';
    const others = union.filter((branch) => !isNull(branch));
    if (others.length !== union.length) {
      const inner = others[0] === undefined ? null : emitTest(others[0], em, v, tolerant);
      return inner === null ? null : `(${v} === null || ${inner})`;
    }
    if (!schema.discriminator) return null;
    const key = schema.discriminator.propertyName;
    const cases: string[] = [];
    for (const branch of union) {
      if (typeof branch !== 'object' || !branch.$ref) return null;
      const name = componentName(branch.$ref);
      const literal = schemaSource[name]?.properties?.[key];
      const value = typeof literal === 'object' ? literal.enum?.[0] : undefined;
      if (value === undefined || !em.tested.has(name)) return null;
      cases.push(
        `    case ${typeof value === 'string' ? str(value) : String(value)}:\n      return is${name}(v);`,
      );
    }
    const fn = `isUnion${em.counter++}`;
    em.decls.push(
      `function ${fn}(v: any): boolean {\n  if (!isObject(v)) return false;\n  switch (${access('v', key)}) {\n${cases.join('\n')}\n    default:\n      return false;\n  }\n}`,
    );
    return `${fn}(${v})`;
  }
  if (schema.default !== undefined) return null;
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const nonNull = types.filter((type) => type !== 'null');
  const nullable = nonNull.length !== types.length;
  const type = nonNull[0];
  let out: string;
  if (schema.enum) {
    const values = schema.enum.map(
      (value) => `${v} === ${typeof value === 'string' ? str(value) : String(value)}`,
    );
    out = `(${values.join(' || ')})`;
  } else if (type === undefined) return `${v} === null`;
  else if (type === 'string') {
    if (schema['x-decimal']) return null;
    const parts = [`typeof ${v} === 'string'`];
    const pattern = rulePattern(schema);
    if (pattern !== undefined) parts.push(`${regexConst(em, regexLiteral(pattern))}.test(${v})`);
    else if (schema.format === 'uuid') parts.push(`${regexConst(em, formatLiteral(GUID))}.test(${v})`);
    else if (schema.format === 'date-time')
      parts.push(`${regexConst(em, formatLiteral(DATETIME))}.test(${v})`);
    if (schema.minLength !== undefined) parts.push(`minLength(${v}, ${schema.minLength})`);
    out = parts.length === 1 ? (parts[0] as string) : `(${parts.join(' && ')})`;
  } else if (type === 'integer') {
    if (schema['x-query']) return null;
    const parts = [`Number.isSafeInteger(${v})`];
    if (schema.minimum !== undefined) parts.push(`${v} >= ${schema.minimum}`);
    if (schema.maximum !== undefined) parts.push(`${v} <= ${schema.maximum}`);
    out = parts.length === 1 ? (parts[0] as string) : `(${parts.join(' && ')})`;
  } else if (type === 'number') out = `(typeof ${v} === 'number' && Number.isFinite(${v}))`;
  else if (type === 'boolean') out = `typeof ${v} === 'boolean'`;
  else if (type === 'array') {
    const item = emitTest(schema.items ?? fail('array without items'), em, 'x', tolerant);
    if (item === null) return null;
    const fn = `isArray${em.counter++}`;
    em.decls.push(
      `function ${fn}(v: any): boolean {\n  if (!Array.isArray(v)) return false;\n  for (const x of v) if (!(${item})) return false;\n  return true;\n}`,
    );
    out = `${fn}(${v})`;
  } else if (type === 'object') {
    // Only an object that keeps unknown keys and refines nothing comes back as it came.
    const loose = schema.additionalProperties === true || (tolerant && schema.additionalProperties !== false);
    if (!loose || schema['x-date-order'] || !schema.properties) return null;
    const required = new Set(schema.required ?? []);
    const parts = ['isObject(v)'];
    for (const [key, property] of Object.entries(schema.properties)) {
      const value = access('v', key);
      if (property === false) {
        parts.push(`${value} === undefined`);
        continue;
      }
      const test = emitTest(property, em, value, tolerant);
      if (test === null) return null;
      // A required key must be there (a schema that takes undefined would otherwise let it go).
      if (required.has(key)) parts.push(test === 'true' ? `${str(key)} in v` : test);
      else parts.push(`(${value} === undefined || ${test})`);
    }
    const fn = `isObject${em.counter++}`;
    em.decls.push(`function ${fn}(v: any): boolean {\n  return (\n    ${parts.join(' &&\n    ')}\n  );\n}`);
    out = `${fn}(${v})`;
  } else return null;
  return nullable ? `(${v} === null || ${out})` : out;
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

/** zod's string length rule: at least \`n\` code points. */
function minLength(v: string, n: number): boolean {
  return v.length >= n * 2 || (v.length >= n && [...v].length >= n);
}
`;

function dataCheck(expr: string): string {
  const array = /^z\.array\((\w+)\)$/.exec(expr);
  return array ? `c.array(${array[1]})` : expr;
}

/** The content of src/generated/validators.ts. */
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
  schemaSource = input.schemas;
  const em: TestEmitter = { decls: [], regexes: new Map(), tested: new Set(), counter: 0 };
  const blocks = input.order
    .filter((name) => needed.has(name))
    .map((name) => {
      const schema = input.schemas[name] ?? fail(`unknown component ${name}`);
      const tolerant = input.tolerant.has(name);
      const expr = emitSchema(schema, { tolerant, coerce: schema['x-query'] === true });
      const test = tolerant ? emitTest(schema, em, 'v', true) : null;
      if (test === null) return `export const ${name}: c.Check<models.${name}> = ${expr};\n`;
      em.tested.add(name);
      const predicate = `function is${name}(v: any): boolean {\n  return ${test};\n}\n`;
      return `${predicate}\nexport const ${name}: c.Check<models.${name}> = c.withTest(${expr}, is${name});\n`;
    });
  const entries = input.endpoints.map((endpoint) => {
    const codes = endpoint.errorCodes.map(([status, list]) => `${status}: [${list.join(', ')}]`).join(', ');
    return [
      `  ${endpoint.operationId}: {`,
      `    operationId: ${str(endpoint.operationId)},`,
      `    method: ${str(endpoint.method)},`,
      `    path: ${str(endpoint.path)},`,
      `    successStatus: ${endpoint.successStatus},`,
      `    idempotent: ${endpoint.idempotent},`,
      `    keyed: ${endpoint.keyed},`,
      `    pathParams: [${endpoint.pathParams.map(str).join(', ')}],`,
      `    query: ${endpoint.query ?? 'null'},`,
      `    body: ${endpoint.body ?? 'null'},`,
      `    responseData: ${endpoint.responseData === null ? 'null' : dataCheck(endpoint.responseData)},`,
      `    errorCodes: { ${codes} },`,
      `    specGap: ${endpoint.specGap},`,
      '  },',
    ].join('\n');
  });
  return `${headerLine}// Plain validators (src/contract/checks.ts) answering as the zod schemas of schemas.ts do, for
// the client, which then needs no zod at run time; test/contract/validators.test.ts compares them.
import * as c from '../contract/checks.js';
import type { EndpointShape } from './endpoints.js';
import type * as models from './models.js';

${HELPERS}
${em.decls.length ? `// Fast-path predicates of the response components (see scripts/generate-validators.ts).\n${em.decls.join('\n\n')}\n` : ''}
${blocks.join('\n')}
/** One operation of the contract, validated by the plain validators above. */
export type CheckedEndpoint = EndpointShape<c.Check>;

/** Every operation of openapi/match-venue.yaml, by operationId, as endpoints.ts has it but with validators. */
export const checkedEndpoints = {
${entries.join('\n')}
} as const satisfies Record<string, CheckedEndpoint>;
`;
}
