import type { RawResponse, WithResponse } from './api-promise.js';
import { APIConnectionError, APIError, APIUserAbortError } from './error.js';
import type { Logger } from './logger.js';
import type { FinalRequest } from './request.js';
import type { Failure } from './response.js';

/**
 * The answer that stands for a call whose last attempt was refused after an earlier attempt may
 * have reached the server, or undefined when the refusal stands; an APIConnectionError when the
 * state cannot be read (the outcome is then unknown). Such a refusal can be the earlier
 * attempt's own doing (a modify that landed turns its retry into an unchanged fee, 137005), so only
 * a request that says how to read the state is settled, and only then: a refusal with nothing
 * ambiguous before it is the server's answer to the one request it saw.
 */
export async function settleRefusal(
  req: FinalRequest<unknown>,
  failure: Failure,
  ambiguousBefore: boolean,
  log: Logger,
  attempts: number,
): Promise<RawResponse | undefined> {
  const settler = req.settleRefusal;
  const refusal = failure.error;
  if (!settler || !ambiguousBefore || failure.ambiguous || !(refusal instanceof APIError)) return undefined;
  let answer: WithResponse<unknown> | undefined;
  try {
    answer = await settler(refusal);
  } catch (error) {
    if (error instanceof APIUserAbortError) throw error;
    // Without the state the outcome is unknown: the earlier attempt may have landed, so handing the
    // refusal over would tell the caller its change was refused when it may have been made.
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    log.warn(
      `${req.method} ${req.path}: could not read the state behind ${refusal.venueCode ?? refusal.status} (${detail})`,
    );
    throw new APIConnectionError(
      `${req.method} ${req.path}: the outcome is unknown: a retry was refused with ${refusal.venueCode ?? refusal.status} after an earlier attempt may have landed, and reading the state failed (${detail}); ${attempts} attempts were made.`,
      { cause: error, attempts },
    );
  }
  if (answer === undefined) return undefined;
  log.info(
    `${req.method} ${req.path}: a retry met ${refusal.venueCode ?? refusal.status}, but an earlier attempt had landed`,
    {
      requestId: answer.response.requestId,
    },
  );
  const { status, headers, requestId } = answer.response;
  return { status, headers, requestId, bodyText: JSON.stringify({ data: answer.data }) };
}
