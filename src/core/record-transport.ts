import type { CassetteHttp, CassetteJson } from '../contract/cassette.js';
import { cassetteRequest } from '../contract/cassette-request.js';
import { recordEntry } from './record-entry.js';
import type { Recorder } from './recorder.js';
import { type Transport, type TransportResponse, TransportTimeoutError } from './transport.js';

// The transport of a recording client: the client's own transport, with one `http` line written per
// attempt (docs/CASSETTES.md). A lazy chunk: a recording client loads it before its first attempt
// (record-load.ts), so a client that does not record never loads it. The line is written when the
// attempt ends (its body read, or its failure), before the pipeline sees the outcome: a bot that
// awaits a call and exits has it on disk.

/** JSON text parsed, or undefined when it is not JSON. */
function parsed(text: string): CassetteJson | undefined {
  try {
    return JSON.parse(text) as CassetteJson;
  } catch {
    return undefined;
  }
}

/** Why no response came, as the line's `error` says it. */
function failureText(err: unknown): string {
  if (err instanceof TransportTimeoutError) return `timeout: ${err.message}`;
  const error = err instanceof Error ? err : undefined;
  const name = error?.name ?? 'Error';
  if (name === 'AbortError') return 'aborted: the caller aborted the request';
  return `connection: ${name}: ${error?.message ?? String(err)}`;
}

/** `transport` with every attempt written to `recorder` as an `http` line against `baseUrl`. */
export function recordingTransport(transport: Transport, recorder: Recorder, baseUrl: string): Transport {
  // A base URL with a path (`https://host/venue`) names requests below it, like the API's paths.
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return async (req) => {
    const at = new Date().toISOString();
    const started = performance.now();
    const line = (response: CassetteHttp['response'], error?: string): CassetteHttp => ({
      kind: 'http',
      at,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      keyId: recorder.keyId,
      attempt: req.attempt ?? 1,
      request: cassetteRequest(req.method, req.url, basePath, req.body),
      response,
      ...(error === undefined ? {} : { error }),
    });
    let response: TransportResponse;
    try {
      response = await transport(req);
    } catch (err) {
      recordEntry(recorder, line(null, failureText(err)));
      throw err;
    }
    // The pipeline reads the body exactly once; it is read here and handed on, recorded.
    return {
      status: response.status,
      headers: response.headers,
      text: async () => {
        let text: string;
        try {
          text = await response.text();
        } catch (err) {
          recordEntry(recorder, line(null, `body: ${failureText(err)}`));
          throw err;
        }
        const json = text === '' ? null : parsed(text);
        recordEntry(
          recorder,
          line(
            json === undefined
              ? { status: response.status, body: null, text }
              : { status: response.status, body: json },
          ),
        );
        return text;
      },
    };
  };
}
