/**
 * The shipped OpenAPI document as other tools read it: validated against the OpenAPI 3.1 schema and
 * dereferenced by @apidevtools/swagger-parser, its schemas compiled by Ajv (JSON Schema 2020-12,
 * with ajv-formats). Ajv ignores the `x-` extensions as other tools do, so only the standard
 * keywords decide here; nothing in this file restates a rule of the API.
 */
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

const FILE = fileURLToPath(new URL('../../openapi/match-venue.yaml', import.meta.url));

interface Media {
  schema: object;
}
interface ResponseObject {
  content?: Record<string, Media>;
  headers?: Record<string, { schema: object }>;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema: object;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, ResponseObject>;
}

/** One operation of the document, where the document puts it. */
export interface DocumentOperation {
  method: string;
  path: string;
  operation: Operation;
}

// ajv-formats is CommonJS: the default import is its module.exports, which carries the plugin as `default`.
const addFormats = formats.default;

/** A media type without its parameters, lower-cased: `application/json; charset=utf-8` -> `application/json`. */
export const mediaType = (header: string | null): string =>
  (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

export class OpenApiDocument {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  // Parameters arrive as text: the query's integers are compared as numbers, as a server reads them.
  private readonly paramAjv = new Ajv2020({ strict: false, coerceTypes: true });
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  private constructor(readonly operations: ReadonlyMap<string, DocumentOperation>) {
    addFormats(this.ajv);
    addFormats(this.paramAjv);
  }

  /** Validates the document (OpenAPI 3.1 schema, every `$ref` resolvable), then reads it dereferenced. */
  static async load(): Promise<OpenApiDocument> {
    const api = (await SwaggerParser.validate(FILE)) as unknown as {
      paths: Record<string, Record<string, Operation>>;
    };
    const operations = new Map<string, DocumentOperation>();
    for (const [path, item] of Object.entries(api.paths))
      for (const [method, operation] of Object.entries(item))
        if (typeof operation === 'object' && operation.operationId)
          operations.set(operation.operationId, { method: method.toUpperCase(), path, operation });
    return new OpenApiDocument(operations);
  }

  get(operationId: string): DocumentOperation {
    const found = this.operations.get(operationId);
    if (!found) throw new Error(`the document has no operation ${operationId}`);
    return found;
  }

  private validator(schema: object, forParams = false): ValidateFunction {
    if (forParams) return this.paramAjv.compile({ type: 'object', properties: { value: schema } });
    let fn = this.compiled.get(schema);
    if (!fn) {
      fn = this.ajv.compile(schema);
      this.compiled.set(schema, fn);
    }
    return fn;
  }

  /**
   * What is wrong with an answer to `operationId` by the document: a status it does not list, a
   * body where it gives none, a media type or body its schema for that status refuses, a header
   * that breaks its schema. Empty when the answer conforms.
   */
  answerProblems(operationId: string, status: number, headers: Headers, text: string): string[] {
    const response = this.get(operationId).operation.responses[String(status)];
    if (!response) return [`status ${status} is not listed for ${operationId}`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = headers.get(name);
      if (value !== null && !this.validator(header.schema, true)({ value }))
        problems.push(`header ${name}: ${value} breaks its schema`);
    }
    if (!response.content) {
      if (text !== '') problems.push(`${status} has no body in the document, got ${text.slice(0, 100)}`);
      return problems;
    }
    const media = response.content[mediaType(headers.get('content-type'))];
    if (!media)
      return [...problems, `content-type ${headers.get('content-type')} is not listed for ${status}`];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [...problems, `${status} body is not JSON: ${text.slice(0, 100)}`];
    }
    const validate = this.validator(media.schema);
    if (!validate(body)) problems.push(`${status} body: ${this.ajv.errorsText(validate.errors)}`);
    return problems;
  }

  /** The document's request body schema accepts `body` (false when the operation takes no body). */
  acceptsBody(operationId: string, body: unknown): boolean {
    const media = this.get(operationId).operation.requestBody?.content['application/json'];
    return media ? this.validator(media.schema)(body) : false;
  }

  /** The request media types the document lists for the operation. */
  requestMediaTypes(operationId: string): string[] {
    return Object.keys(this.get(operationId).operation.requestBody?.content ?? {});
  }

  /** Every named parameter value is accepted by its schema in the document (unknown names are not). */
  acceptsParams(operationId: string, values: Record<string, string>): boolean {
    const params = this.get(operationId).operation.parameters ?? [];
    return Object.entries(values).every(([name, value]) => {
      const param = params.find((candidate) => candidate.name === name);
      return param !== undefined && this.validator(param.schema, true)({ value });
    });
  }
}
