/**
 * A bounded run of bench/fuzz.ts: generated requests over raw loopback sockets (junk bodies, deep
 * nesting, huge strings, odd headers, broken framing, hang-ups, oversized bodies). The first cases
 * take every kind in turn, so each kind is exercised whatever the seed.
 */
import { describe, expect, it } from 'vitest';
import { runFuzz } from '../../bench/fuzz.js';

describe('simulator HTTP server under fuzzed input', () => {
  it('2,000 requests: no 5xx, every error a JSON {code, message} body under 4 KiB, nothing logged, no stall', async () => {
    const report = await runFuzz({ requests: 2_000, seed: 7, timeoutMs: 3_000, maxMs: 60_000 });
    expect({
      serverErrors: report.serverErrors,
      nonJsonErrors: report.nonJsonErrors,
      largeErrorBodies: report.largeErrorBodies,
      loggedErrors: report.loggedErrors,
      crashes: report.crashes,
      stalled: report.stalled,
      closedUnanswered: report.closedUnanswered,
      truncated: report.truncated,
      examples: report.examples,
    }).toEqual({
      serverErrors: 0,
      nonJsonErrors: 0,
      largeErrorBodies: 0,
      loggedErrors: 0,
      crashes: 0,
      stalled: 0,
      closedUnanswered: 0,
      truncated: false,
      examples: {},
    });
    expect(report.maxErrorBodyBytes).toBeLessThanOrEqual(4096);
    expect(report.sent).toBe(2_000);
    expect(report.answered + report.hangups).toBe(2_000);
    // The hostile kinds did reach the server and were answered as such.
    for (const status of ['400', '401', '404', '405', '413', '431'])
      expect(report.byStatus[status]).toBeGreaterThan(0);
  }, 90_000);
});
