import type { z } from 'zod';
import { type ErrorDetail, type HttpError, invalidRequest } from './responses.js';

interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  message: string;
}

const CONSTRAINT_KEYS = [
  'expected',
  'minimum',
  'maximum',
  'inclusive',
  'values',
  'format',
  'pattern',
  'divisor',
  'keys',
  'origin',
];

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

const SHOW_MAX = 200;

function clip(text: string): string {
  return text.length > SHOW_MAX ? `${text.slice(0, SHOW_MAX)}…` : text;
}

/**
 * The offending value as the answer echoes it: clipped, and safe on hostile input (JSON nested
 * deeper than the stack throws RangeError from JSON.stringify and from String() alike).
 */
function show(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return clip(value);
  try {
    return clip(JSON.stringify(value) ?? String(value));
  } catch {
    return Array.isArray(value) ? '[array nested too deep to show]' : '[object nested too deep to show]';
  }
}

/** One ErrorDetail per zod issue; `location` is the dotted field path (`body` for the whole body). */
export function issuesToDetails(issues: readonly IssueLike[], input: unknown, root: string): ErrorDetail[] {
  return issues.map((issue) => {
    const location = issue.path.length ? issue.path.map(String).join('.') : root;
    const constraints: Record<string, unknown> = {};
    for (const key of CONSTRAINT_KEYS) {
      const v = (issue as unknown as Record<string, unknown>)[key];
      if (v !== undefined && typeof v !== 'function')
        constraints[key] = typeof v === 'bigint' ? String(v) : v;
    }
    const detail: ErrorDetail = { error: issue.code, message: issue.message, location, constraints };
    const invalidValue = show(valueAt(input, issue.path));
    if (invalidValue !== undefined) detail.invalidValue = invalidValue;
    return detail;
  });
}

export function firstMessage(details: ErrorDetail[]): string {
  const d = details[0];
  if (!d) return 'Invalid request';
  // Some schema messages already start with the field name ("orderType must be BURN or MINT").
  const text =
    d.location && !d.message.startsWith(`${d.location} `) ? `${d.location} ${d.message}` : d.message;
  return `Invalid request: ${clip(text)}`;
}

/** Parses `input` with `schema` or throws the 400 code 2 answer naming every failing field. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, root = 'body'): z.infer<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const details = issuesToDetails(r.error.issues, input, root);
  throw invalidRequest(firstMessage(details), details);
}

/**
 * The request body as a JSON object, read once; malformed JSON or a non-object is 400 code 2. With `emptyAsObject` (control bodies whose every
 * field is optional) an empty body means `{}`; otherwise it is a 400 like any non-object.
 */
export async function readJsonObject(req: Request, emptyAsObject = false): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (emptyAsObject && text.trim() === '') return {};
  const body = parseJson(text);
  const bad = notObject(body);
  if (bad) throw bad;
  return body as Record<string, unknown>;
}

function parseJson(text: string): unknown {
  if (text.trim() === '')
    throw invalidRequest('Request body must be a JSON object', [
      { error: 'invalid_json', message: 'body is empty', location: 'body' },
    ]);
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : 'unparseable';
    throw invalidRequest('Request body is not valid JSON', [
      { error: 'invalid_json', message, location: 'body', invalidValue: text.slice(0, 200) },
    ]);
  }
}

function notObject(body: unknown): HttpError | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return invalidRequest('Request body must be a JSON object', [
      {
        error: 'invalid_type',
        message: 'must be a JSON object',
        location: 'body',
        invalidValue: show(body) ?? '',
      },
    ]);
  return undefined;
}
