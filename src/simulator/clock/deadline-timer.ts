/**
 * The real clock's driver: one unref'd timer at the next scheduled transition (a simulated instant,
 * epoch ms), so an idle simulator never keeps a process alive.
 */
export class DeadlineTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private at: number | undefined;

  constructor(
    private readonly now: () => number,
    private readonly onDue: () => void,
  ) {}

  /** Fires `onDue` at `at`; null cancels. Setting the instant already set keeps the running timer. */
  set(at: number | null): void {
    if (at === null) {
      this.clear();
      return;
    }
    if (this.timer && this.at === at) return;
    this.clear();
    this.at = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.at = undefined;
        this.onDue();
      },
      Math.max(0, at - this.now()),
    );
    this.timer.unref?.();
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.at = undefined;
  }
}
