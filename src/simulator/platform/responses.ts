/**
 * The platform's error entries (rendered by the simulator's one error renderer, http/responses.ts)
 * and the XML answers of the SNS stand-ins.
 */
import { MAX_ERROR_ENTRIES, show } from '../http/responses.js';

export interface ErrorEntry {
  error: string;
  message: string;
  location: string;
  invalidValue: string;
  constraints: Record<string, unknown>;
}

export function entry(
  location: string,
  message: string,
  invalidValue: unknown,
  errorName = 'invalid',
): ErrorEntry {
  return {
    error: errorName,
    message,
    location,
    invalidValue: show(invalidValue) ?? '',
    constraints: {},
  };
}

/** Zod-like issues (path + message + code) to extended error entries. */
export function entriesFromIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string; code: string }[],
  input: unknown,
): ErrorEntry[] {
  return issues.slice(0, MAX_ERROR_ENTRIES).map((issue) => {
    const location = issue.path.map(String).join('.');
    let value: unknown = input;
    for (const key of issue.path) {
      value =
        typeof value === 'object' && value !== null
          ? (value as Record<PropertyKey, unknown>)[key]
          : undefined;
    }
    return entry(location, issue.message, value ?? null, issue.code);
  });
}

/** A small XML document, the shape SNS answers ConfirmSubscription / Unsubscribe calls with. */
export function xml(status: number, body: string): Response {
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, {
    status,
    headers: { 'content-type': 'text/xml' },
  });
}

export function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
