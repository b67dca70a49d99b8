/**
 * The default wording of an issue, used where the OpenAPI gives the field no message of its own
 * (`x-rule`, `x-pattern-message`...). It names the rule, never the library: the field is named by
 * the issue's path, so a message reads after it ("amount.currency must be a string, not a number").
 */

/** What a check knows when it raises an issue; `message` and the error maps decide its text. */
export interface Raised {
  code: string;
  input: unknown;
  continue: boolean;
  /** The check's own message. */
  message?: string | undefined;
  /** The raising schema's error map (it also words its rules' issues). */
  map?: ((input: unknown, code: string) => string | undefined) | undefined;
  expected?: string;
  values?: readonly unknown[];
  origin?: string;
  bound?: number;
  keys?: readonly string[];
  options?: readonly unknown[];
  /** The string format (`uuid`, `date-time`) or the pattern's source an invalid_format issue failed. */
  format?: string;
  pattern?: string;
  /** Path below the current value (a refinement's `path`). */
  at?: readonly (string | number)[];
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** What a wrong value is, in the words of the message ("a number", "null", "an array"). */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isFinite(value) ? `the number ${value}` : String(value);
  const type = typeof value;
  if (type === 'object') return 'an object';
  return type === 'undefined' ? 'nothing' : `a ${type}`;
}

/** A listed value as a message shows it: strings bare (`BURN`), anything else as JSON. */
const show = (value: unknown): string => (typeof value === 'string' ? value : String(value));

const list = (values: readonly unknown[]): string => values.map(show).join(', ');

function typeMessage(issue: Raised): string {
  const expected = issue.expected ?? '';
  if (expected === 'nonoptional') return 'is required';
  if (expected === 'never') return 'is not allowed';
  if (issue.input === undefined) return 'is required';
  return `must be ${ARTICLE[expected] ?? expected}, not ${describeType(issue.input)}`;
}

function boundMessage(issue: Raised): string {
  const least = issue.code === 'too_small';
  const word = least ? 'at least' : 'at most';
  if (issue.origin === 'string') return `must be ${word} ${issue.bound} characters long`;
  if (issue.origin === 'array') return `must have ${word} ${issue.bound} items`;
  if (issue.origin === 'int') return `must be a safe integer (${word} ${issue.bound})`;
  return `must be ${word} ${issue.bound}`;
}

/** The default message of a raised issue (only the kinds the checks raise). */
export function defaultMessage(issue: Raised): string {
  switch (issue.code) {
    case 'invalid_type':
      return typeMessage(issue);
    case 'invalid_value': {
      const values = issue.values ?? [];
      return values.length === 1 ? `must be ${show(values[0])}` : `must be one of ${list(values)}`;
    }
    case 'too_small':
    case 'too_big':
      return boundMessage(issue);
    case 'unrecognized_keys': {
      const keys = issue.keys ?? [];
      return `has ${keys.length > 1 ? 'unknown keys' : 'an unknown key'}: ${keys.join(', ')}`;
    }
    case 'invalid_union':
      return `must be one of ${list(issue.options ?? [])}`;
    case 'invalid_format':
      return 'is not in the expected format';
    default:
      return 'is invalid';
  }
}
