// The simulator's errors are on the SDK's error base (issue 34): one `instanceof MatchVenueError`
// catches them, and each carries a stable `code` (= `kind`) to match on instead of the message.
import { MatchVenueError } from 'match-venue';
import {
  CassetteError,
  ClockJumpInProgressError,
  ClockJumpTooLargeError,
  createSimulator,
  MarketConfigError,
  ScenarioError,
  SnapshotError,
  StoreInUseError,
  StoreLayoutError,
  StoreUnavailableError,
  StoreWriteError,
} from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';

describe("the simulator's errors", () => {
  it('are MatchVenueErrors with a stable code, their name and message kept', () => {
    const view = { to: '2026-01-01T00:00:10.000Z', now: '2026-01-01T00:00:00.000Z' };
    const cases: [Error, string, string][] = [
      [
        new MarketConfigError('market.noise.count must not be negative'),
        'MarketConfigError',
        'SIM_MARKET_INVALID',
      ],
      [new ScenarioError('seed', 'must be an integer'), 'ScenarioError', 'SIM_SCENARIO_INVALID'],
      [new CassetteError(3, 'is not complete JSON'), 'CassetteError', 'SIM_CASSETTE_INVALID'],
      [new SnapshotError('version must be 1 or 2', 'version'), 'SnapshotError', 'SIM_SNAPSHOT_INVALID'],
      [
        new ClockJumpTooLargeError(86_400_000, 10, 5_000_000),
        'ClockJumpTooLargeError',
        'SIM_CLOCK_JUMP_TOO_LARGE',
      ],
      [new ClockJumpInProgressError(view as never), 'ClockJumpInProgressError', 'SIM_CLOCK_JUMP_IN_PROGRESS'],
      [new StoreInUseError('in use'), 'StoreInUseError', 'SIM_STORE_IN_USE'],
      [new StoreLayoutError('not a store'), 'StoreLayoutError', 'SIM_STORE_LAYOUT'],
      [new StoreUnavailableError('no driver'), 'StoreUnavailableError', 'SIM_STORE_UNAVAILABLE'],
      [new StoreWriteError('disk full'), 'StoreWriteError', 'SIM_STORE_WRITE_FAILED'],
    ];
    for (const [err, name, code] of cases) {
      expect(err).toBeInstanceOf(MatchVenueError);
      expect({
        name: err.name,
        code: (err as MatchVenueError).code,
        kind: (err as MatchVenueError).kind,
      }).toEqual({
        name,
        code,
        kind: code,
      });
      expect((err.constructor as typeof MatchVenueError).kind).toBe(code);
    }
    expect(new ScenarioError('seed', 'must be an integer').message).toBe('scenario: seed must be an integer');
  });

  it('a refused option carries its code: createSimulator({ market }) with a bad preset', () => {
    expect(() => createSimulator({ market: 'stormy' as never })).toThrow(
      expect.objectContaining({ code: 'SIM_MARKET_INVALID', name: 'MarketConfigError' }),
    );
  });
});
