/**
 * The platform's error entries (rendered by the simulator's one error renderer, http/responses.ts)
 * and the XML answers of the SNS stand-ins.
 */
import { issueDetails, showValue } from '../../contract/error-details.js';
import type { CheckIssue } from '../../validation/index.js';
import { MAX_ERROR_ENTRIES } from '../http/responses.js';

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
    invalidValue: showValue(invalidValue) ?? '',
    constraints: {},
  };
}

/**
 * Check failures as the platform answers them, by the contract's mapping
 * (src/contract/error-details.ts) with every field of an entry present: no constraints, and a
 * missing value shown as `null`.
 */
export function entriesFromIssues(issues: readonly CheckIssue[], input: unknown): ErrorEntry[] {
  return issueDetails(issues, { input, limit: MAX_ERROR_ENTRIES }).map((d) => ({
    error: d.error,
    message: d.message,
    location: d.location ?? '',
    invalidValue: d.invalidValue ?? 'null',
    constraints: {},
  }));
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
