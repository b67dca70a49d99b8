import { z } from 'zod';
import { clip, type ErrorDetail, issueDetails, showValue } from '../../contract/error-details.js';
import { type Check, type CheckIssue, runCheck } from '../../validation/index.js';
import {
  type BodySource,
  type ParsedJson,
  parseJsonText,
  readBodyText,
  readJson,
  unexpectedBody,
} from './body.js';
import { andThen, type MaybeAsync } from './maybe-async.js';
import { type HttpError, invalidRequest, MAX_ERROR_ENTRIES } from './responses.js';

/**
 * One ErrorDetail per issue, by the contract's mapping (src/contract/error-details.ts): `location`
 * is the dotted field path (`root` for the whole input), at most the entries rendered.
 */
export function issuesToDetails(
  issues: readonly (z.core.$ZodIssue | CheckIssue)[],
  input: unknown,
  root: string,
): ErrorDetail[] {
  return issueDetails(issues, { root, input, limit: MAX_ERROR_ENTRIES });
}

export function firstMessage(details: ErrorDetail[]): string {
  const d = details[0];
  if (!d) return 'Invalid request';
  // Some schema messages already start with the field name ("orderType must be BURN or MINT").
  const text =
    d.location && !d.message.startsWith(`${d.location} `) ? `${d.location} ${d.message}` : d.message;
  return `Invalid request: ${clip(text)}`;
}

/**
 * Checks `input` with an operation's generated check (the same one the client runs before sending)
 * and returns its output, or throws the 400 code 2 answer naming every failing field.
 */
export function validate<T>(check: Check<T>, input: unknown, root = 'body'): T {
  const r = runCheck(check, input);
  if (r.ok) return r.value;
  throw refusal(issuesToDetails(r.issues, input, root));
}

/** The 400 code 2 answer for these failing fields, its message the first one's. */
export function refusal(details: ErrorDetail[]): HttpError {
  return invalidRequest(firstMessage(details), details);
}

/** Parses `input` with one of the simulator's own zod configs or throws the 400 code 2 answer. */
export function validateConfig<S extends z.ZodType>(schema: S, input: unknown, root = 'body'): z.infer<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  throw refusal(issuesToDetails(r.error.issues, input, root));
}

/**
 * The request body as a JSON object, read once; malformed JSON or a non-object is 400 code 2. With
 * `emptyAsObject` (control bodies whose every field is optional) an empty body means `{}`;
 * otherwise it is a 400 like any non-object. Synchronous for a body node:http has already read.
 */
export function readJsonObject(
  req: BodySource,
  emptyAsObject = false,
  /** The body limit of a route that takes more than MAX_BODY_BYTES (`/_sim/restore`). */
  limit?: number,
): MaybeAsync<Record<string, unknown>> {
  return andThen(readJson(req, limit), (parsed) => jsonObject(parsed, emptyAsObject));
}

function jsonObject(parsed: ParsedJson, emptyAsObject: boolean): Record<string, unknown> {
  if (!parsed.ok) {
    if (parsed.reason === 'empty') {
      if (emptyAsObject) return {};
      throw invalidRequest('Request body must be a JSON object', [
        { error: 'invalid_json', message: 'body is empty', location: 'body' },
      ]);
    }
    const what = parsed.reason === 'too_deep' ? 'is nested too deeply' : 'is not valid JSON';
    throw invalidRequest(`Request body ${what}`, [parsed.detail]);
  }
  const body = parsed.value;
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalidRequest('Request body must be a JSON object', [
      {
        error: 'invalid_type',
        message: 'must be a JSON object',
        location: 'body',
        invalidValue: showValue(body) ?? '',
      },
    ]);
  return body as Record<string, unknown>;
}

const NoParams = z.object({}).strict();

/**
 * A `/_sim/` action without parameters (settle, reset, snapshot): no body, or an empty JSON object,
 * whatever its Content-Type (`curl -d '{}'` sends one as a form). Any other body stays 400 code 2:
 * an object's fields named as on the other `/_sim/` bodies (`unrecognized_keys`), anything else
 * `unexpected_body`. The contract's operations stay strict: a body where none belongs is refused.
 */
export function assertNoParams(req: BodySource): MaybeAsync<void> {
  return andThen(readBodyText(req), refuseParams);
}

function refuseParams(text: string): void {
  if (text.trim() === '') return;
  const parsed = parseJsonText(text);
  const value = parsed.ok ? parsed.value : undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw unexpectedBody();
  validateConfig(NoParams, value);
}
