import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimClock } from '../../src/simulator/clock/sim-clock.js';

afterEach(() => vi.useRealTimers());

describe('SimClock', () => {
  it('a manual clock moves only by advance and jumpTo, backwards included', () => {
    const clock = new SimClock('manual', '2030-01-01T00:00:00.000Z');
    const start = Date.parse('2030-01-01T00:00:00.000Z');
    expect(clock.now()).toBe(start);
    clock.advance(1500);
    expect(clock.now()).toBe(start + 1500);
    clock.jumpTo(start - 10);
    expect(clock.now()).toBe(start - 10);
  });

  it('a real clock runs the step at each deadline, re-armed after it, until stopped', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const clock = new SimClock('real', undefined);
    const steps: number[] = [];
    let due = 1_000_100;
    clock.drive(
      () => due,
      () => {
        steps.push(clock.now());
        due += 100;
      },
    );
    clock.arm();
    vi.advanceTimersByTime(250);
    expect(steps).toEqual([1_000_100, 1_000_200]);
    clock.stop();
    vi.advanceTimersByTime(1000);
    expect(steps).toEqual([1_000_100, 1_000_200]);
  });

  it('a manual clock never runs a step', () => {
    vi.useFakeTimers({ now: 0 });
    const clock = new SimClock('manual', 0);
    let ran = 0;
    clock.drive(
      () => 10,
      () => ran++,
    );
    clock.arm();
    vi.advanceTimersByTime(1000);
    expect(ran).toBe(0);
  });
});
