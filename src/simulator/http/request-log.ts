/**
 * One line of the request log that `listen({ onRequest })` reports: what was asked and answered,
 * never a credential (no query string, no headers, no ticket).
 */
export interface RequestLogEntry {
  /** `'websocket'`: an upgrade at the socket path (101 accepted, else the refusal's status). */
  kind: 'http' | 'websocket';
  /** The request method; `'-'` when the request line itself could not be read. */
  method: string;
  /** The path without its query string (which may carry anything); `'-'` when unreadable. */
  path: string;
  /** The status answered; null when no answer was sent (the dropResponse fault, a client gone). */
  status: number | null;
  /** `code` of the JSON error body, when the answer is an error with one. */
  code?: number;
  /** Wall-clock milliseconds from the request's arrival to its answer being handed to the socket. */
  ms: number;
  /**
   * The client's request id (the SDK's `x-client-request-id` header), when it sent a well-formed
   * one: the id an SDK error names as `clientRequestId`, even for an attempt that got no answer.
   */
  requestId?: string;
  /** The client's attempt number (`x-client-attempt`), when it sent one. */
  attempt?: number;
}

/** Receives each request-log entry (`listen({ onRequest })`, `attachWebSocket({ onUpgrade })`). */
export type RequestLogHook = (entry: RequestLogEntry) => void;

const MAX_PATH = 200;

/**
 * The path part of a request target, for a log line: the query is cut (it may hold a secret a
 * client put there), control characters are replaced, and a long one is shortened.
 */
export function loggablePath(target: string | undefined): string {
  if (!target) return '-';
  let path = target.split('?', 1)[0] ?? '';
  // An absolute-form target (`GET http://host/path`) logs its path too.
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(path)) path = path.replace(/^[a-z][a-z\d+.-]*:\/\/[^/]*/i, '') || '/';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing them is the point
  path = path.replace(/[\u0000-\u001f\u007f]/g, '?');
  return path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path;
}

/** `code` of a JSON error body, if the answer is an error and its body says one. */
export function errorCodeOf(
  status: number,
  contentType: string | null | undefined,
  body: Uint8Array | undefined,
) {
  if (status < 400 || !body || !contentType?.includes('json')) return undefined;
  try {
    const code = (JSON.parse(Buffer.from(body).toString('utf8')) as { code?: unknown }).code;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** The SDK's correlation headers (core/telemetry/names.ts on the client side). */
const CLIENT_REQUEST_ID = 'x-client-request-id';
const CLIENT_ATTEMPT = 'x-client-attempt';
// An id is logged only when it looks like one: a header is the client's to fill with anything.
const ID_SHAPE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id and attempt a client sent, each only when well-formed. */
export function clientCorrelation(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Pick<RequestLogEntry, 'requestId' | 'attempt'> {
  const out: Pick<RequestLogEntry, 'requestId' | 'attempt'> = {};
  const id = headers[CLIENT_REQUEST_ID];
  if (typeof id === 'string' && ID_SHAPE.test(id)) out.requestId = id;
  const attempt = headers[CLIENT_ATTEMPT];
  if (typeof attempt === 'string' && /^[1-9]\d{0,5}$/.test(attempt)) out.attempt = Number(attempt);
  return out;
}
