/**
 * Bounded runs of bench/fuzz.ts, one per family: generated requests over raw loopback sockets
 * (junk bodies, deep nesting, huge strings, odd headers, broken framing, hang-ups, oversized
 * bodies); POST /_sim/restore with mutations of a real busy-market snapshot; /_sim/ui/* and odd
 * top-level paths; mutated example scenarios. The first cases of each family take every kind in
 * turn, so each kind is exercised whatever the seed.
 */
import { describe, expect, it } from 'vitest';
import { type FamilyReport, FINDING_KEYS } from '../../bench/fuzz-family.js';
import { runFuzz } from '../../bench/fuzz.js';

/** Every finding of a family (and its examples, so a failure shows the cases): all must be 0. */
function findings(r: FamilyReport | undefined) {
  if (!r) throw new Error('the family did not run');
  return {
    ...Object.fromEntries(FINDING_KEYS.map((k) => [k, r[k]])),
    truncated: r.truncated,
    examples: Object.fromEntries(
      Object.entries(r.examples).filter(([k]) => k !== 'acceptedBreakingInvariants'),
    ),
  };
}
const NONE = {
  ...Object.fromEntries(FINDING_KEYS.map((k) => [k, 0])),
  truncated: false,
  examples: {},
};

describe('simulator HTTP server under fuzzed input', () => {
  it('2,000 requests: no 5xx, every error a JSON {code, message} body under 4 KiB, nothing logged, no stall', async () => {
    const report = await runFuzz({
      requests: 2_000,
      families: ['http'],
      seed: 7,
      timeoutMs: 3_000,
      maxMs: 60_000,
    });
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
    expect(report.findings).toEqual({ http: 0, restore: 0, ui: 0, scenarios: 0, total: 0 });
  }, 90_000);

  it('POST /_sim/restore of a mutated busy-market snapshot: the original restores, every refusal a 400 naming the path with state byte-identical, no 5xx before or after', async () => {
    const report = await runFuzz({ families: ['restore'], restore: 18, seed: 7, timeoutMs: 10_000 });
    const r = report.families.restore;
    expect(findings(r)).toEqual(NONE);
    // The snapshot the simulator made (~3 MB) is taken back whole, not refused for its size.
    expect(r?.sent).toBe(18);
    expect(r?.tooLarge).toBe(0);
    expect(r?.accepted).toBeGreaterThan(0);
    expect(r?.refused).toBeGreaterThan(0);
    expect(Object.keys(r?.byStatus ?? {}).sort()).toEqual(['200', '400']);
  }, 90_000);

  it('/_sim/ui/* and odd paths (__proto__, encoded, dot segments, long, unicode): an answer each, no 5xx, JSON errors, nothing logged', async () => {
    const report = await runFuzz({ families: ['ui'], ui: 150, seed: 7, timeoutMs: 3_000 });
    const r = report.families.ui;
    expect(findings(r)).toEqual(NONE);
    expect(r?.sent).toBe(150);
    // Object.prototype's names under /_sim/ui are missing files, not a failed request.
    for (const status of ['200', '404', '405']) expect(r?.byStatus[status]).toBeGreaterThan(0);
  }, 90_000);

  it('mutated example scenarios: loaded or refused with a ScenarioError, never another error; an accepted one clears and its snapshot restores', async () => {
    const report = await runFuzz({ families: ['scenarios'], scenarios: 50, seed: 7, timeoutMs: 10_000 });
    const r = report.families.scenarios;
    expect(findings(r)).toEqual(NONE);
    expect(r?.sent).toBe(50);
    // The three examples as shipped load; most mutations are refused.
    expect(r?.accepted).toBeGreaterThanOrEqual(3);
    expect(r?.refused).toBeGreaterThan(r?.accepted ?? 0);
  }, 90_000);
});
