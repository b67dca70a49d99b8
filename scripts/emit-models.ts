/**
 * openapi/match-venue.yaml -> src/generated/models.ts: the API's data types, written out (not
 * inferred from the checks) so that every field carries its description as JSDoc for editors and
 * the API reference. The checks of validators.ts are typed with these (`c.Check<models.Name>`).
 */
import type { OpenApiDocument } from './openapi-document.js';
import { dependencyOrder, responseComponents } from './openapi-document.js';
import {
  componentName,
  fail,
  jsdoc,
  propertyKey,
  type Schema,
  type SchemaObject,
  str,
} from './openapi-source.js';

/** `output`: what a checked response holds (defaults filled); `input`: what a caller writes. */
type TypeMode = 'output' | 'input';

/** A property's description: its own, else that of the component it refers to. */
function describe(schema: Schema, schemas: Record<string, SchemaObject>): string | undefined {
  if (typeof schema !== 'object') return undefined;
  if (schema.description) return schema.description;
  return schema.$ref ? schemas[componentName(schema.$ref)]?.description : undefined;
}

interface TypeContext {
  mode: TypeMode;
  /** Response objects keep unknown keys, so their types do too. */
  tolerant: boolean;
  schemas: Record<string, SchemaObject>;
  /** Where the schema sits, for error messages. */
  at: string;
}

function emitObjectType(schema: SchemaObject, ctx: TypeContext, pad: string): string {
  const properties = schema.properties;
  if (!properties) return 'Record<string, unknown>';
  const required = new Set(schema.required ?? []);
  const inner = `${pad}  `;
  const members = Object.entries(properties).map(([key, property]) => {
    const at = `${ctx.at}.${key}`;
    if (property === false) {
      const rule = schema['x-forbidden-message'] ?? 'must be omitted';
      return `${jsdoc(`Not allowed: ${rule}.`, inner)}${inner}${propertyKey(key)}?: undefined;`;
    }
    const text =
      describe(property, ctx.schemas) ?? fail(`${at} has no description (the API reference needs one)`);
    const hasDefault = typeof property === 'object' && property.default !== undefined;
    // A default makes a field optional to write and present once parsed.
    const optional = !required.has(key) && !(hasDefault && ctx.mode === 'output');
    const type = emitType(property, { ...ctx, at }, inner);
    return `${jsdoc(text, inner)}${inner}${propertyKey(key)}${optional ? '?' : ''}: ${type};`;
  });
  const loose =
    schema.additionalProperties === true || (ctx.tolerant && schema.additionalProperties !== false);
  if (loose)
    members.push(
      `${jsdoc('Fields this version does not know are kept.', inner)}${inner}[key: string]: unknown;`,
    );
  return `{\n${members.join('\n')}\n${pad}}`;
}

/** The TypeScript type of what `schema`'s check accepts (emit-validators.ts, branch by branch). */
function emitType(schema: Schema, ctx: TypeContext, pad: string): string {
  if (schema === true) return 'unknown';
  if (schema === false) fail(`${ctx.at}: a false schema is only supported as an object property`);
  if (schema.$ref !== undefined) return componentName(schema.$ref);
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return union.map((branch) => emitType(branch, ctx, pad)).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const nullable = types.includes('null');
  const type = types.find((candidate) => candidate !== 'null');
  let out: string;
  if (schema.enum)
    out = schema.enum.map((value) => (typeof value === 'string' ? str(value) : String(value))).join(' | ');
  else if (type === undefined) return 'null';
  else if (type === 'string') out = 'string';
  else if (type === 'integer' || type === 'number') out = 'number';
  else if (type === 'boolean') out = 'boolean';
  else if (type === 'array') {
    const items = emitType(schema.items ?? fail('array without items'), ctx, pad);
    out = /^[\w.]+$/.test(items) ? `${items}[]` : `Array<${items}>`;
  } else if (type === 'object') out = emitObjectType(schema, ctx, pad);
  else fail(`unsupported type ${type}`);
  return nullable ? `${out} | null` : out;
}

/** The content of src/generated/models.ts (after `headerLine`). */
export function generateModels(doc: OpenApiDocument, headerLine: string): string {
  const tolerant = responseComponents(doc);
  const models = dependencyOrder(doc.components.schemas).map((name) => {
    const schema = doc.components.schemas[name] ?? fail(`unknown component ${name}`);
    const isResponse = tolerant.has(name);
    // A request type is what a caller writes, so fields with defaults stay optional there.
    const mode: TypeMode = isResponse ? 'output' : 'input';
    const hasDefaults = JSON.stringify(schema).includes('"default":');
    const description =
      schema.description ?? fail(`component ${name} has no description (the API reference needs one)`);
    const comment = hasDefaults
      ? `${description}\n\nWhat a caller sends (defaulted fields optional); the checked form fills in the defaults.`
      : description;
    const type = emitType(
      schema,
      { mode, tolerant: isResponse, schemas: doc.components.schemas, at: name },
      '',
    );
    return `${jsdoc(comment, '')}export type ${name} = ${type};\n`;
  });
  return `${headerLine}// The API's data types, one per schema component of openapi/match-venue.yaml.\n\n${models.join('\n')}`;
}
