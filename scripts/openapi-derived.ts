/**
 * The schema components the emitters read, derived from openapi/match-venue.yaml: the document
 * states each rule the way client generators read it (query parameters in components/parameters,
 * forbidden properties by `additionalProperties: false`, no boolean schemas), and this turns those
 * statements into the components the generated checks are built from, so that a rule still has one
 * home. Each operation's query becomes one object schema, `<OperationId>Query`; the properties an
 * object forbids by name (`x-forbidden-properties`) become properties that must be absent.
 */
import {
  HTTP_METHODS,
  type OpenApiDocument,
  type OperationObject,
  queryComponent,
  resolveParameter,
} from './openapi-document.js';
import { fail, isObject, type Schema, type SchemaObject } from './openapi-source.js';

/** Where `node` holds a boolean schema (`additionalProperties: false` is a keyword, not counted). */
export function booleanSchemas(node: unknown, at: string, into: string[] = []): string[] {
  const check = (value: unknown, where: string) => {
    if (typeof value === 'boolean') into.push(where);
    else booleanSchemas(value, where, into);
  };
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) booleanSchemas(item, `${at}/${index}`, into);
  } else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      const where = `${at}/${key}`;
      if (key === 'properties' && isObject(value)) {
        for (const [name, property] of Object.entries(value)) check(property, `${where}/${name}`);
      } else if (key === 'items' || key === 'schema' || key === 'not') check(value, where);
      else if ((key === 'oneOf' || key === 'anyOf' || key === 'allOf') && Array.isArray(value)) {
        for (const [index, branch] of value.entries()) check(branch, `${where}/${index}`);
      } else booleanSchemas(value, where, into);
    }
  }
  return into;
}

/** `schema` with its `x-forbidden-properties` as properties whose schema is `false` (must be absent). */
function withForbidden(name: string, schema: SchemaObject): SchemaObject {
  const { 'x-forbidden-properties': names, ...rest } = schema;
  if (!names) return schema;
  if (schema.additionalProperties !== false) {
    fail(`${name}: x-forbidden-properties needs additionalProperties: false, the rule's standard statement`);
  }
  const properties: Record<string, Schema> = { ...schema.properties };
  for (const key of names) {
    if (key in properties) fail(`${name}.${key} is both a property and forbidden`);
    properties[key] = false;
  }
  return { ...rest, properties };
}

/** The object schema of an operation's query parameters, with its name; undefined when it has none. */
function querySchema(
  doc: OpenApiDocument,
  operationId: string,
  at: string,
  operation: OperationObject,
): [string, SchemaObject] | undefined {
  const params = (operation.parameters ?? [])
    .map((param) => resolveParameter(doc, param))
    .filter((param) => param.in === 'query');
  const name = queryComponent(operationId, params);
  const order = operation['x-date-order'];
  if (name === null) {
    if (order) fail(`${operationId}: x-date-order without query parameters`);
    return undefined;
  }
  const properties: Record<string, Schema> = {};
  for (const param of params) {
    const schema = param.schema ?? fail(`${operationId}: query parameter ${param.name} has no schema`);
    const description =
      param.description ?? fail(`${operationId}: query parameter ${param.name} has no description`);
    // One description, on the parameter, where generators and readers of the document look.
    if (schema.description !== undefined) fail(`${operationId}: describe ${param.name} on the parameter`);
    properties[param.name] = { ...schema, description };
  }
  if (order && !(order.from in properties && order.to in properties)) {
    fail(`${operationId}: x-date-order names parameters it does not have`);
  }
  const required = params.filter((param) => param.required === true).map((param) => param.name);
  const schema: SchemaObject = {
    type: 'object',
    description: `Query parameters of ${at}${required.length === 0 ? ', all optional' : ''}.`,
    'x-query': true,
    ...(order ? { 'x-date-order': order } : {}),
    ...(required.length > 0 ? { required } : {}),
    properties,
  };
  return [name, schema];
}

/** The document's schema components plus each operation's query object, as the emitters read them. */
export function emitterSchemas(doc: OpenApiDocument): Record<string, SchemaObject> {
  const found = booleanSchemas(doc, '#');
  if (found.length > 0) {
    fail(`boolean schemas at ${found.join(', ')}: generators refuse them; state the rule in keywords`);
  }
  const schemas: Record<string, SchemaObject> = {};
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    schemas[name] = withForbidden(name, schema);
  }
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation?.operationId) continue;
      const query = querySchema(doc, operation.operationId, `${method.toUpperCase()} ${path}`, operation);
      if (!query) continue;
      if (query[0] in schemas) fail(`${query[0]} is both a schema component and a query`);
      schemas[query[0]] = query[1];
    }
  }
  return schemas;
}
