/**
 * openapi/errors.yaml -> src/generated/errors.ts: the error catalog (ErrorCode, errorCatalog,
 * lookupErrorCode), after checking it against the error codes the operations' responses list.
 */
import type { EndpointInfo } from './openapi-document.js';
import { fail, jsdoc, str } from './openapi-source.js';

export interface ErrorEntry {
  code: number;
  http: number | null;
  name: string;
  group: string;
  meaning: string;
  raisedBy: string[];
  retryable: boolean;
  retryNote?: string;
  note?: string;
}

export function checkErrors(entries: ErrorEntry[], endpoints: EndpointInfo[]): void {
  const codes = new Set<number>();
  const names = new Set<string>();
  for (const entry of entries) {
    if (!Number.isInteger(entry.code) || codes.has(entry.code)) fail(`duplicate or bad code ${entry.code}`);
    if (!/^[A-Z][A-Za-z0-9]*$/.test(entry.name) || names.has(entry.name))
      fail(`bad or duplicate ${entry.name}`);
    if (!entry.meaning || !entry.group || entry.raisedBy.length === 0) fail(`incomplete entry ${entry.code}`);
    if (typeof entry.retryable !== 'boolean') fail(`retryable of ${entry.code} must be a boolean`);
    codes.add(entry.code);
    names.add(entry.name);
  }
  const operations = new Set(endpoints.map((endpoint) => endpoint.operationId));
  for (const endpoint of endpoints) {
    for (const [status, list] of endpoint.errorCodes) {
      for (const code of list) {
        const entry = entries.find((candidate) => candidate.code === code);
        if (!entry) fail(`${endpoint.operationId} ${status} lists ${code}, which errors.yaml lacks`);
        if (entry.http !== status)
          fail(`${endpoint.operationId} lists ${code} under ${status}, errors.yaml says ${entry.http}`);
      }
    }
  }
  // Venue codes name operations; the responses that carry them must agree both ways.
  for (const entry of entries.filter((candidate) => candidate.group.startsWith('venue-'))) {
    for (const op of entry.raisedBy)
      if (!operations.has(op)) fail(`${entry.code} raisedBy unknown operation ${op}`);
    const carriers = endpoints
      .filter((endpoint) => endpoint.errorCodes.some(([, list]) => list.includes(entry.code)))
      .map((endpoint) => endpoint.operationId);
    if ([...carriers].sort().join() !== [...entry.raisedBy].sort().join()) {
      fail(`${entry.code}: raisedBy [${entry.raisedBy}] but responses carry it for [${carriers}]`);
    }
  }
}

export function generateErrors(entries: ErrorEntry[], headerLine: string): string {
  const constants = entries
    .map((entry) => {
      const status = entry.http === null ? 'SDK-UI, never sent over HTTP' : `HTTP ${entry.http}`;
      return `${jsdoc(`${entry.code} (${status}): ${entry.meaning.replace(/\.?$/, '.')}`, '  ')}  ${entry.name}: ${entry.code},`;
    })
    .join('\n');
  const infos = entries
    .map((entry) => {
      const fields = [
        `code: ${entry.code}`,
        `name: ${str(entry.name)}`,
        `http: ${entry.http === null ? 'null' : entry.http}`,
        `group: ${str(entry.group)}`,
        `meaning: ${str(entry.meaning)}`,
        `raisedBy: [${entry.raisedBy.map(str).join(', ')}]`,
        `retryable: ${entry.retryable}`,
      ];
      if (entry.retryNote) fields.push(`retryNote: ${str(entry.retryNote)}`);
      if (entry.note) fields.push(`note: ${str(entry.note)}`);
      return `  {\n${fields.map((field) => `    ${field},`).join('\n')}\n  },`;
    })
    .join('\n');
  return `${headerLine}
/** Every error code of the venue and platform documents, by name. */
export const ErrorCode = {
${constants}
} as const;

/** The name of an error code, e.g. \`'InsufficientBalance'\`. */
export type ErrorCodeName = keyof typeof ErrorCode;
/** A numeric error code the documents define, e.g. \`137001\`. */
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

/** What the documents say about one error code. */
export interface ErrorCodeInfo {
  /** The numeric code in the error body. */
  code: number;
  /** Its key in {@link ErrorCode}. */
  name: string;
  /** HTTP status the code arrives with; null for SDK-UI codes, which never cross HTTP. */
  http: number | null;
  /** The documents' wording. */
  meaning: string;
  /** operationIds for venue codes; the platform API area (or 'all') for platform codes. */
  raisedBy: readonly string[];
  /** Sending the same request again later can succeed without changing it. */
  retryable: boolean;
  /** The documents' grouping, e.g. \`venue-order\`, \`wallet\`, \`sdk-ui\`. */
  group: string;
  /** Why the code is (or is not) retryable, where that is not obvious. */
  retryNote?: string;
  /** Where this catalog reads the documents beyond a single table row. */
  note?: string;
}

const entries: readonly ErrorCodeInfo[] = [
${infos}
];

/** Every error code's {@link ErrorCodeInfo}, keyed by code. */
export const errorCatalog: ReadonlyMap<number, ErrorCodeInfo> = new Map(
  entries.map((entry) => [entry.code, Object.freeze(entry)]),
);

/** What the documents say about \`code\`; undefined for a code they do not define. */
export function lookupErrorCode(code: number): ErrorCodeInfo | undefined {
  return errorCatalog.get(code);
}
`;
}
