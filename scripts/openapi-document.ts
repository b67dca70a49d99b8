/**
 * Reading openapi/match-venue.yaml for the emitters: the subset of OpenAPI 3.1 the contract uses,
 * which components answers reach, the order components depend on each other, and each operation's
 * row of the endpoint table. Fails loudly on anything outside the subset.
 */
import { collectRefs, componentName, fail, type SchemaObject } from './openapi-source.js';

// ---- the subset of OpenAPI 3.1 the contract uses ------------------------------------------------

export interface Reference {
  $ref: string;
}
export interface MediaType {
  schema?: SchemaObject;
}
export interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
  'x-error-codes'?: number[];
  'x-spec-gap'?: boolean;
}
export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
}
export interface OperationObject {
  operationId?: string;
  parameters?: (ParameterObject | Reference)[];
  /** `{from, to, rule}` over the query parameters: the one rule JSON Schema cannot state. */
  'x-date-order'?: { from: string; to: string; rule: string };
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, ResponseObject | Reference>;
  /** Overrides the derived `idempotent` (GET, DELETE, a keyed body) where the operation's effect says otherwise. */
  'x-idempotent'?: boolean;
}
export interface OpenApiDocument {
  paths: Record<string, Partial<Record<string, OperationObject>>>;
  components: {
    schemas: Record<string, SchemaObject>;
    parameters?: Record<string, ParameterObject>;
    responses?: Record<string, ResponseObject>;
  };
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Components nothing points at (a pointer into a component counts as a use of it). */
export function unusedComponents(doc: OpenApiDocument): string[] {
  const refs = collectRefs(doc, []);
  const used = (prefix: string) => refs.some((ref) => ref === prefix || ref.startsWith(`${prefix}/`));
  return [
    ...Object.keys(doc.components.schemas).map((name) => `#/components/schemas/${name}`),
    ...Object.keys(doc.components.parameters ?? {}).map((name) => `#/components/parameters/${name}`),
    ...Object.keys(doc.components.responses ?? {}).map((name) => `#/components/responses/${name}`),
  ].filter((pointer) => !used(pointer));
}

/** Schema components reachable from any response: they are parsed tolerantly (unknown keys kept). */
export function responseComponents(doc: OpenApiDocument): Set<string> {
  const seen = new Set<string>();
  const visit = (names: string[]) => {
    for (const name of names) {
      if (seen.has(name)) continue;
      seen.add(name);
      const schema = doc.components.schemas[name] ?? fail(`unknown component ${name}`);
      visit(collectRefs(schema, []).map(componentName));
    }
  };
  const responseRefs: string[] = [];
  for (const response of Object.values(doc.components.responses ?? {})) collectRefs(response, responseRefs);
  for (const item of Object.values(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) collectRefs(operation.responses, responseRefs);
    }
  }
  visit(responseRefs.filter((ref) => ref.startsWith('#/components/schemas/')).map(componentName));
  return seen;
}

/** Component names in an order where each comes after the components it refers to. */
export function dependencyOrder(schemas: Record<string, SchemaObject>): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') fail(`recursive component ${name} is not supported`);
    state.set(name, 'visiting');
    for (const ref of collectRefs(schemas[name], [])) visit(componentName(ref));
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of Object.keys(schemas)) visit(name);
  return order;
}

export function resolveResponse(doc: OpenApiDocument, response: ResponseObject | Reference): ResponseObject {
  if (!('$ref' in response)) return response;
  const match = /^#\/components\/responses\/(\w+)$/.exec(response.$ref);
  return (match?.[1] && doc.components.responses?.[match[1]]) || fail(`unresolvable ${response.$ref}`);
}

export function jsonSchema(media: Record<string, MediaType> | undefined): SchemaObject | undefined {
  if (!media) return undefined;
  const json = media['application/json'] ?? fail('only application/json bodies are supported');
  return json.schema ?? fail('media type without schema');
}

export interface EndpointInfo {
  operationId: string;
  method: string;
  path: string;
  successStatus: number;
  idempotent: boolean;
  keyed: boolean;
  pathParams: string[];
  query: string | null;
  body: string | null;
  /** A component name, or `c.array(Name)`. */
  responseData: string | null;
  errorCodes: [number, number[]][];
  specGap: boolean;
}

/** A parameter, its `$ref` into components/parameters resolved. */
export function resolveParameter(doc: OpenApiDocument, param: ParameterObject | Reference): ParameterObject {
  if (!('$ref' in param)) return param;
  const match = /^#\/components\/parameters\/(\w+)$/.exec(param.$ref);
  return (match?.[1] && doc.components.parameters?.[match[1]]) || fail(`unresolvable ${param.$ref}`);
}

/**
 * The check of an operation's query: one object built from its query parameters
 * (scripts/openapi-derived.ts), named `<OperationId>Query`; null when it takes none.
 */
export function queryComponent(operationId: string, params: ParameterObject[]): string | null {
  if (params.length === 0) return null;
  return `${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}Query`;
}

export function hasIdempotencyKey(doc: OpenApiDocument, name: string): boolean {
  const schema = doc.components.schemas[name] ?? fail(`unknown component ${name}`);
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) {
    return variants.every(
      (variant) =>
        typeof variant === 'object' && !!variant.$ref && hasIdempotencyKey(doc, componentName(variant.$ref)),
    );
  }
  return schema.properties?.idempotencyKey !== undefined;
}

/** The success body's `data`: a component, or an array of one. */
export function dataSchema(data: SchemaObject, operationId: string): string {
  if (data.$ref) return componentName(data.$ref);
  const items = data.items;
  if (data.type === 'array' && typeof items === 'object' && items.$ref)
    return `c.array(${componentName(items.$ref)})`;
  fail(`${operationId}: data must be a component or an array of one`);
}

export function collectEndpoints(doc: OpenApiDocument): EndpointInfo[] {
  const endpoints: EndpointInfo[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const operationId = operation.operationId ?? fail(`${method} ${path} has no operationId`);
      const statuses = Object.keys(operation.responses);
      const success = statuses.filter((status) => /^2\d\d$/.test(status));
      if (success.length !== 1 || !success[0]) fail(`${operationId} needs exactly one success status`);
      const successResponse = resolveResponse(doc, operation.responses[success[0]] ?? fail('unreachable'));
      const successSchema = jsonSchema(successResponse.content);
      const data = successSchema?.properties?.data;
      if (successSchema && (typeof data !== 'object' || !successSchema.required?.includes('data'))) {
        fail(`${operationId}: a success body must be {data: ...}`);
      }
      const params = (operation.parameters ?? []).map((param) => resolveParameter(doc, param));
      const bodySchema = jsonSchema(operation.requestBody?.content);
      const body = bodySchema ? componentName(bodySchema.$ref ?? fail(`${operationId}: inline body`)) : null;
      const upper = method.toUpperCase();
      const keyed = body !== null && hasIdempotencyKey(doc, body);
      const derived = upper === 'GET' || upper === 'DELETE' || keyed;
      const declared = operation['x-idempotent'];
      if (declared === derived) fail(`${operationId}: x-idempotent repeats what the method and body say`);
      endpoints.push({
        operationId,
        method: upper,
        path,
        successStatus: Number(success[0]),
        idempotent: declared ?? derived,
        keyed,
        pathParams: params.filter((param) => param.in === 'path').map((param) => param.name),
        query: queryComponent(
          operationId,
          params.filter((param) => param.in === 'query'),
        ),
        body,
        responseData: typeof data === 'object' ? dataSchema(data, operationId) : null,
        errorCodes: statuses
          .filter((status) => /^[45]\d\d$/.test(status))
          .map((status): [number, number[]] => {
            const response = resolveResponse(doc, operation.responses[status] ?? fail('unreachable'));
            return [Number(status), response['x-error-codes'] ?? []];
          }),
        specGap: successResponse['x-spec-gap'] === true,
      });
    }
  }
  return endpoints;
}
/** Keywords the emitter turns into validation, or that only document (description, examples). */
const KNOWN_KEYWORDS = new Set([
  '$ref',
  'type',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'oneOf',
  'anyOf',
  'discriminator',
  'format',
  'pattern',
  'minLength',
  'minimum',
  'maximum',
  'default',
  'description',
  'examples',
  'x-pattern-message',
  'x-decimal',
  'x-rule',
  'x-date-order',
  'x-query',
  'x-forbidden-message',
  'x-url',
  'x-spec-gap',
]);
/** Formats with a check; `uri` is documentation next to a pattern (or x-url) that enforces it. */
const KNOWN_FORMATS = new Set(['uuid', 'date-time', 'uri']);

/** Refuses a keyword the emitter would otherwise drop, so no rule of the YAML goes unenforced. */
export function checkKeywords(schema: SchemaObject): void {
  const unknown = Object.keys(schema).filter((key) => !KNOWN_KEYWORDS.has(key));
  if (unknown.length > 0) fail(`unsupported keyword(s) ${unknown.join(', ')} in ${JSON.stringify(schema)}`);
  if (schema.format !== undefined && !KNOWN_FORMATS.has(schema.format))
    fail(`unsupported format ${schema.format}`);
  if (schema.format === 'uri' && schema.pattern === undefined)
    fail('format uri needs a pattern that enforces it');
}

/** Each discriminator mapping must name the variant whose property is that single value. */
export function checkDiscriminator(schema: SchemaObject, schemas: Record<string, SchemaObject>): void {
  const discriminator = schema.discriminator;
  if (!discriminator) return;
  const variants = (schema.oneOf ?? []).map((branch) =>
    typeof branch === 'object' && branch.$ref
      ? componentName(branch.$ref)
      : fail('discriminated variants must be $refs'),
  );
  const mapping = Object.entries(discriminator.mapping ?? fail('a discriminator needs an explicit mapping'));
  if (mapping.length !== variants.length) fail('discriminator mapping and oneOf differ in length');
  for (const [value, ref] of mapping) {
    const name = componentName(ref);
    const property = schemas[name]?.properties?.[discriminator.propertyName];
    const values = typeof property === 'object' ? property.enum : undefined;
    if (!variants.includes(name) || values?.length !== 1 || values[0] !== value) {
      fail(`discriminator value ${value} does not match ${name}.${discriminator.propertyName}`);
    }
  }
}
