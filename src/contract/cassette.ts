/**
 * The cassette: what `record` (MATCH_VENUE_RECORD) writes and what replay and `match-venue-sim probe`
 * read. NDJSON, one JSON object per line: a header line first, then one line per exchange, in the
 * order they ended. This module holds the line shapes (the redaction rule every writer applies is
 * cassette-redact.ts's, apart so that a client that does not record never loads it); the one check of a cassette (and the published `schemas/cassette.schema.json`, drawn from it) is
 * src/simulator/cassette/schema.ts, whose inferred type is pinned to these interfaces by a test.
 */
/** The `format` of a cassette's header line. */
export const CASSETTE_FORMAT = 'match-venue-cassette';
/** The cassette format version this SDK writes and reads. */
export const CASSETTE_VERSION = 1;
/** What stands where a secret was. */
export const CASSETTE_REDACTED = '[redacted]';

/** A JSON value as parsed from a line. */
export type CassetteJson =
  | null
  | boolean
  | number
  | string
  | CassetteJson[]
  | { [key: string]: CassetteJson };

/** The first line of every cassette. */
export interface CassetteHeader {
  /** Always `cassette`: the header line. */
  kind: 'cassette';
  /** Always `match-venue-cassette`. */
  format: typeof CASSETTE_FORMAT;
  /** The format version ({@link CASSETTE_VERSION}); a reader refuses another. */
  version: typeof CASSETTE_VERSION;
  /** When the file was started (ISO 8601, the recording machine's clock). */
  createdAt: string;
  /** The SDK version that started it (`match-venue-node/<version>`). */
  sdk: string;
}

/** The parts of a request a replay matches on, and a probe sends again. */
export interface CassetteRequest {
  /** The HTTP method, upper case. */
  method: string;
  /** The path below the base URL, e.g. `/v1/match/orders/ord_1` (no query). */
  path: string;
  /** The query parameters, each as sent (repeated names as an array). */
  query: Record<string, string | string[]>;
  /** The JSON body sent, or null without one. */
  body: CassetteJson;
}

/** One REST attempt and what came back. */
export interface CassetteHttp {
  /** Always `http`. */
  kind: 'http';
  /** When the attempt was sent (ISO 8601). */
  at: string;
  /** Wall-clock milliseconds from send to the whole response (or the failure). */
  durationMs: number;
  /**
   * The id part of the API key that made the call (`TEST_API_KEY:<id>:…`; not secret), so a replay
   * answers each client from its own exchanges and a probe maps each to an entity. Never the key.
   */
  keyId: string | null;
  /** 1 for the first attempt of a call, 2 for its first retry, and so on. */
  attempt: number;
  /** What was sent (its headers are not recorded). */
  request: CassetteRequest;
  /**
   * The response: its status and body (parsed JSON, or null when empty). Null when no response came
   * (a timeout, a dropped connection): `error` says which.
   */
  response: {
    /** The HTTP status. */
    status: number;
    /** The body parsed as JSON; null when empty or not JSON. */
    body: CassetteJson;
    /** The body as sent, when it was not JSON. */
    text?: string;
  } | null;
  /** Why no response came (set exactly when `response` is null). */
  error?: string;
}

/** One event of a stream's WebSocket connection. */
export interface CassetteWs {
  /** Always `ws`. */
  kind: 'ws';
  /** When the event happened (ISO 8601). */
  at: string;
  /** Numbers the recorder's connections from 1, so one connection's lines can be read together. */
  connection: number;
  /** The id part of the API key of the client whose stream this is (never the key). */
  keyId: string | null;
  /**
   * `open`: the connection opened (`url` without query, `protocol` the subprotocol the server
   * selected; the ticket protocol is never written). `send` / `receive`: one frame each way, parsed
   * (`frame`). `close`: the connection ended (`code`).
   */
  event: 'open' | 'send' | 'receive' | 'close';
  /** `open`: the socket's address, without query. */
  url?: string;
  /** `open`: the subprotocol the server selected. */
  protocol?: string;
  /** `send` / `receive`: the frame, parsed (its text when it was not JSON). */
  frame?: CassetteJson;
  /** `close`: the close code. */
  code?: number;
}

/** One webhook delivery the receiver verified, without its signature material. */
export interface CassetteWebhook {
  /** Always `webhook`. */
  kind: 'webhook';
  /** When the receiver verified the delivery (ISO 8601). */
  at: string;
  /** `sns`: a Notification API v1 (SNS) message; `v2`: a v2 notification. */
  scheme: 'sns' | 'v2';
  /** The v2 signing key's id (public), when v2. */
  keyId?: string;
  /** The delivered message, signature fields removed. */
  message: CassetteJson;
}

/** Any line after the header. */
export type CassetteEntry = CassetteHttp | CassetteWs | CassetteWebhook;

/** The header line a new cassette starts with. */
export function cassetteHeader(sdk: string, now: Date): CassetteHeader {
  return {
    kind: 'cassette',
    format: CASSETTE_FORMAT,
    version: CASSETTE_VERSION,
    createdAt: now.toISOString(),
    sdk,
  };
}

/** The signature of a request a replay matches on: key id, method, path, sorted query, body. */
export function requestSignature(keyId: string | null, request: CassetteRequest): string {
  const query = Object.keys(request.query)
    .sort()
    .map((name) => `${name}=${JSON.stringify(request.query[name])}`)
    .join('&');
  return `${keyId ?? '-'} ${request.method.toUpperCase()} ${request.path}${query ? `?${query}` : ''} ${JSON.stringify(withoutIdempotencyKey(request.body))}`;
}

/**
 * The body without its `idempotencyKey`: the client draws a fresh key for every call, so two runs
 * of the same bot send the same request under different keys; a replay must answer both.
 */
export function withoutIdempotencyKey(body: CassetteJson): CassetteJson {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('idempotencyKey' in body))
    return body;
  const { idempotencyKey: _key, ...rest } = body;
  return rest;
}
