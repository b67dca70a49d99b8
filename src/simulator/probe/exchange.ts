/**
 * One recorded REST attempt, sent again to the probe's simulator and its answer compared with the
 * recorded one: the status, the venue `code` of an error body, the body's shape. The request is the
 * recorded one with the recorded ids replaced by the simulator's, under the mapped entity's key.
 */
import type { CassetteHttp, CassetteJson } from '../../contract/cassette.js';
import { cassetteBody } from '../../contract/cassette-request.js';
import type { Simulator } from '../simulator.js';
import type { IdFallback, IdMap } from './ids.js';
import { compareShapes } from './shape.js';

/** A difference of one exchange, before the probe adds where it is. */
export interface ExchangeDifference {
  kind: 'status' | 'code' | 'missing' | 'extra' | 'type';
  path: string;
  recorded: string;
  simulated: string;
}

export interface Answer {
  status: number;
  body: CassetteJson;
}

/** Sends `entry`'s request (ids rewritten) as `apiKey`, or without a key when null. */
export async function sendRecorded(
  sim: Simulator,
  entry: CassetteHttp,
  apiKey: string | null,
  ids: IdMap,
  fallback: IdFallback,
): Promise<Answer> {
  const request = ids.rewrite(entry.request, fallback);
  const url = new URL(request.path, 'http://probe.sim');
  for (const [name, value] of Object.entries(request.query))
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, v);
  const headers: Record<string, string> = {};
  if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
  const hasBody = request.body !== null && !['GET', 'HEAD'].includes(request.method);
  if (hasBody) headers['content-type'] = 'application/json';
  const res = await sim.handle(
    new Request(url, {
      method: request.method,
      headers,
      body: hasBody ? JSON.stringify(request.body) : null,
    }),
  );
  const text = await res.text();
  return { status: res.status, body: cassetteBody(text) };
}

/** The venue code of an error answer (`{code, message}`), as text; undefined for a success. */
function venueCode(answer: Answer): string | undefined {
  if (answer.status < 400) return undefined;
  const body = answer.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const code = body.code;
  return typeof code === 'number' || typeof code === 'string' ? String(code) : undefined;
}

/**
 * The differences between the recorded answer and the simulated one. Bodies are compared only when
 * both are successes or both errors: a success against an error differs in every field, and the
 * status (and code) already say so.
 */
export function compareAnswers(recorded: Answer, simulated: Answer): ExchangeDifference[] {
  const out: ExchangeDifference[] = [];
  if (recorded.status !== simulated.status)
    out.push({
      kind: 'status',
      path: 'status',
      recorded: String(recorded.status),
      simulated: String(simulated.status),
    });
  const [r, s] = [venueCode(recorded), venueCode(simulated)];
  if (r !== s) out.push({ kind: 'code', path: 'code', recorded: r ?? '-', simulated: s ?? '-' });
  if (recorded.status < 400 === simulated.status < 400)
    out.push(...compareShapes(recorded.body, simulated.body));
  return out;
}
