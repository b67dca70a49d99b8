import type { MirrorView, PendingChange } from './mirror-view.js';

// One timer, at the view's next retention expiry: final orders and withdrawals leave the view when
// their retention window ends, whether or not anything else happens on the account.

export class RetentionTimer {
  #armed: { at: number; timer: ReturnType<typeof setTimeout> } | undefined;
  #closed = false;

  constructor(
    private readonly view: MirrorView,
    private readonly publish: (change: PendingChange) => void,
  ) {}

  /** (Re)arms the timer at the next expiry, if that is sooner than the armed one. */
  arm(): void {
    const at = this.view.nextExpiry();
    if (at === undefined || this.#closed) return;
    if (this.#armed && this.#armed.at <= at) return;
    if (this.#armed) clearTimeout(this.#armed.timer);
    const timer = setTimeout(
      () => {
        this.#armed = undefined;
        for (const change of this.view.sweep()) this.publish(change);
        this.arm();
      },
      Math.max(0, at - Date.now()),
    );
    (timer as { unref?: () => void }).unref?.();
    this.#armed = { at, timer };
  }

  close(): void {
    this.#closed = true;
    if (this.#armed) clearTimeout(this.#armed.timer);
    this.#armed = undefined;
  }
}
