import type { VenueEngine } from '../engine/engine.js';
import type { Logger } from '../events/logger.js';
import { DeadlineTimer } from './deadline-timer.js';
import { startTimeMs } from './start-time.js';

/**
 * The simulator's time (epoch ms): the start, plus every advance and restore jump, plus ('real'
 * only) the wall time since creation; a real clock also runs the cycle's steps as they fall due.
 * Apart from simulator.ts, which asks it the time and re-arms it after every action.
 */
export class SimClock {
  /** Simulated time at creation (`startTime`, default the wall clock then). */
  private readonly start: number;
  /**
   * Wall-clock time of the first reading: a real clock runs on from `start` by the wall time since.
   * Taken at the first now() (the engine's, during creation), not in this constructor, so that
   * auction 1 opens exactly at `startTime` however long the rest of the set-up takes.
   */
  private wallStart: number | undefined;
  private offset = 0;
  private timer: DeadlineTimer | undefined;
  private next: () => number | null = () => null;
  private stopped = false;

  constructor(
    readonly mode: 'real' | 'manual',
    startTime: Date | number | string | undefined,
  ) {
    this.start = startTimeMs(startTime, Date.now());
  }

  now(): number {
    if (this.mode !== 'real') return this.start + this.offset;
    const wall = Date.now();
    this.wallStart ??= wall;
    const elapsed = wall - this.wallStart;
    return this.start + elapsed + this.offset;
  }

  /** Moves simulated time forward by `ms` (already checked non-negative). */
  advance(ms: number): void {
    this.offset += ms;
  }

  /** Makes now `t` (a restored snapshot's instant), backwards included. */
  jumpTo(t: number): void {
    this.offset += t - this.now();
  }

  /**
   * A real clock runs `step` at each instant `next()` names (one unref'd timer, re-armed after the
   * step and after every {@link arm}); a manual clock never does.
   */
  drive(next: () => number | null, step: () => void): void {
    if (this.mode !== 'real') return;
    this.next = next;
    this.timer = new DeadlineTimer(
      () => this.now(),
      () => {
        step();
        this.arm();
      },
    );
  }

  /** A real clock runs the engine's steps as they fall due; a step that throws is logged. */
  driveEngine(engine: () => VenueEngine, logger: Logger): void {
    this.drive(
      () => engine().nextDeadline(),
      () => {
        try {
          engine().advanceTo();
        } catch (err) {
          logger.error('auction cycle step failed', err);
        }
      },
    );
  }

  /** Re-reads the next deadline: after anything that may have moved it. */
  arm(): void {
    if (!this.stopped) this.timer?.set(this.next());
  }

  /** No step runs any more. */
  stop(): void {
    this.stopped = true;
    this.timer?.clear();
  }
}
