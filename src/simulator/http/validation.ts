import type { z } from 'zod';
import { readJson } from './body.js';
import { clip, type ErrorDetail, invalidRequest, MAX_ERROR_ENTRIES, show } from './responses.js';

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

/** One ErrorDetail per zod issue; `location` is the dotted field path (`body` for the whole body). */
export function issuesToDetails(issues: readonly IssueLike[], input: unknown, root: string): ErrorDetail[] {
  // Entries past the rendered ones would be dropped anyway; a huge body can fail thousands of times.
  return issues.slice(0, MAX_ERROR_ENTRIES).map((issue) => {
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
 * The request body as a JSON object, read once; malformed JSON or a non-object is 400 code 2. With
 * `emptyAsObject` (control bodies whose every field is optional) an empty body means `{}`;
 * otherwise it is a 400 like any non-object.
 */
export async function readJsonObject(req: Request, emptyAsObject = false): Promise<Record<string, unknown>> {
  const parsed = await readJson(req);
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
        invalidValue: show(body) ?? '',
      },
    ]);
  return body as Record<string, unknown>;
}
