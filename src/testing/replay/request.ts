/**
 * A live request read into the cassette's shape (contract/cassette.ts's CassetteRequest), so that
 * its signature can be compared with the recorded ones, and the one-line description an error
 * names it by. It is redacted as every cassette writer redacts its lines: a recorded `[redacted]`
 * field then matches the live value it stands for, and a description never shows a secret.
 */
import { readApiKey } from '../../contract/api-key.js';
import {
  type CassetteJson,
  type CassetteRequest,
  requestSignature,
  withoutIdempotencyKey,
} from '../../contract/cassette.js';
import { cassetteRequest } from '../../contract/cassette-request.js';
import { redactForCassette } from '../../contract/cassette-redact.js';

/** A request as a replay matches it. */
export interface LiveRequest {
  /** The key id from `Authorization: Bearer TEST_API_KEY:<id>:…`, or null without a usable key. */
  keyId: string | null;
  request: CassetteRequest;
  /** What the replay matches on (contract/cassette.ts's requestSignature). */
  signature: string;
}

function bearerKey(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const match = header === null ? null : /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}

/**
 * Reads `request` as the recorder wrote its requests: the path below `basePath` (the base URL's
 * path, '' for an origin), the query by name, the JSON body with secrets redacted.
 */
export async function readLiveRequest(request: Request, basePath: string): Promise<LiveRequest> {
  const key = bearerKey(request);
  const reading = readApiKey(key);
  const keyId = reading.ok ? reading.id : null;
  const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
  // The recorder redacts its whole line (the path and query too), and so the request is here.
  const read = redactForCassette(
    cassetteRequest(request.method, request.url, basePath, text) as unknown as CassetteJson,
    key === undefined ? [] : [key],
  ) as unknown as CassetteRequest;
  return { keyId, request: read, signature: requestSignature(keyId, read) };
}

const BODY_SHOWN = 160;

/**
 * `POST /v1/match/orders (key burner, body {"orderType":"BURN",…})`: the method, path and sorted
 * query as a URL shows them, the key id (never the key) and the body without its idempotency key,
 * cut at 160 characters.
 */
export function describeRequest(keyId: string | null, request: CassetteRequest): string {
  const params = new URLSearchParams();
  for (const name of Object.keys(request.query).sort()) {
    const value = request.query[name] as string | string[];
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  }
  const query = params.size > 0 ? `?${params.toString()}` : '';
  const body = request.body;
  let shown = body === null ? 'none' : JSON.stringify(withoutIdempotencyKey(body));
  if (shown.length > BODY_SHOWN) shown = `${shown.slice(0, BODY_SHOWN)}…`;
  return `${request.method.toUpperCase()} ${request.path}${query} (key ${keyId ?? 'none'}, body ${shown})`;
}
