/**
 * Fast-path predicates for src/generated/validators.ts: for a response component (whose valid
 * values come back as they are), a plain boolean function of straight-line checks, what a valid
 * answer costs on the hot path. It accepts exactly what the component's check accepts
 * (test/contract/validators.test.ts); a value it rejects is run through the check, which words the
 * issues.
 */
import {
  componentName,
  FORMAT_REGEX,
  fail,
  integerBounds,
  regexLiteral,
  rulePattern,
  type Schema,
  type SchemaObject,
  str,
} from './openapi-source.js';

export interface TestEmitter {
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

/** A boolean expression over `v`, true exactly when `schema` accepts it; null when none fits. */
export function emitTest(
  schema: Schema,
  em: TestEmitter,
  v: string,
  tolerant: boolean,
  schemaSource: Record<string, SchemaObject>,
): string | null {
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
      const inner = others[0] === undefined ? null : emitTest(others[0], em, v, tolerant, schemaSource);
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
    if (schema['x-decimal'] || schema['x-url']) return null;
    const parts = [`typeof ${v} === 'string'`];
    const pattern = rulePattern(schema);
    if (pattern !== undefined) parts.push(`${regexConst(em, regexLiteral(pattern))}.test(${v})`);
    else if (schema.format === 'uuid') parts.push(`${regexConst(em, FORMAT_REGEX.uuid)}.test(${v})`);
    else if (schema.format === 'date-time')
      parts.push(`${regexConst(em, FORMAT_REGEX['date-time'])}.test(${v})`);
    if (schema.minLength !== undefined) parts.push(`minLength(${v}, ${schema.minLength})`);
    out = parts.length === 1 ? (parts[0] as string) : `(${parts.join(' && ')})`;
  } else if (type === 'integer') {
    if (schema['x-query']) return null;
    const parts = [`Number.isSafeInteger(${v})`];
    const { minimum, maximum } = integerBounds(schema);
    if (minimum !== undefined) parts.push(`${v} >= ${minimum}`);
    if (maximum !== undefined) parts.push(`${v} <= ${maximum}`);
    out = parts.length === 1 ? (parts[0] as string) : `(${parts.join(' && ')})`;
  } else if (type === 'number') out = `(typeof ${v} === 'number' && Number.isFinite(${v}))`;
  else if (type === 'boolean') out = `typeof ${v} === 'boolean'`;
  else if (type === 'array') {
    const item = emitTest(schema.items ?? fail('array without items'), em, 'x', tolerant, schemaSource);
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
      const test = emitTest(property, em, value, tolerant, schemaSource);
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
