/**
 * openapi/match-venue.yaml -> src/generated/endpoints.ts: the endpoint table, one row per operation
 * (method, path, success status, idempotency, the checks of its query, body and answer, its error
 * codes). The client sends every call from it and the simulator routes and validates by it.
 */
import type { EndpointInfo } from './openapi-document.js';
import { str } from './openapi-source.js';

const ENDPOINT_TYPE = `/**
 * One operation of the contract, with the generated checks (validators.ts) of its query, JSON body
 * and success body's \`data\`.
 */
export interface EndpointDefinition {
  /** Its key in the table, as the document's operationId. */
  readonly operationId: OperationId;
  /** The HTTP method. */
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** With \`{name}\` placeholders for \`pathParams\`. */
  readonly path: string;
  /** The one 2xx status a success arrives with. */
  readonly successStatus: number;
  /**
   * Safe to send again after an attempt that may have reached the server: GET and DELETE, a body
   * carrying an idempotencyKey, or what the document marks \`x-idempotent\`. The client never
   * re-sends any other operation after such an attempt (OutcomeUnknownError instead).
   */
  readonly idempotent: boolean;
  /** The body carries an \`idempotencyKey\`: the client makes one per call and reuses it on every attempt. */
  readonly keyed: boolean;
  /** Names of the \`{name}\` placeholders in \`path\`, in order. */
  readonly pathParams: readonly string[];
  /** Checks the query parameters; null when the operation takes none. */
  readonly query: c.Check | null;
  /** Checks the JSON request body; null when the operation sends none. */
  readonly body: c.Check | null;
  /** Checks \`data\` in the success body; null when the success response has no body. */
  readonly responseData: c.Check | null;
}`;

/** The content of src/generated/endpoints.ts (after `headerLine`). */
export function generateEndpoints(endpoints: EndpointInfo[], headerLine: string): string {
  const identifiers = new Set<string>();
  for (const endpoint of endpoints) {
    for (const expr of [endpoint.query, endpoint.body, endpoint.responseData]) {
      for (const match of (expr ?? '').matchAll(/\b([A-Z][A-Za-z0-9]*)\b/g))
        if (match[1]) identifiers.add(match[1]);
    }
  }
  const entries = endpoints.map((endpoint) => {
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
      `    responseData: ${endpoint.responseData ?? 'null'},`,
      '  },',
    ].join('\n');
  });
  return `${headerLine}// The endpoint table: the client sends every call from it and the simulator routes and checks
// every venue and platform request by it, with the same generated checks (validators.ts).
import * as c from '../validation/index.js';
import { ${[...identifiers].sort().join(', ')} } from './validators.js';

/**
 * The operationId of an operation of the endpoint table (\`endpoints\`, from openapi/match-venue.yaml).
 * No export of the package: the API reference shows the names in place (\`@inline\`) where an
 * exported type uses them (OutcomeUnknownError's \`operation\`).
 * @inline
 */
export type OperationId =
${endpoints.map((endpoint) => `  | ${str(endpoint.operationId)}`).join('\n')};

${ENDPOINT_TYPE}

/** Every operation of openapi/match-venue.yaml, by operationId. */
export const endpoints = {
${entries.join('\n')}
} as const satisfies Record<OperationId, EndpointDefinition>;
`;
}
