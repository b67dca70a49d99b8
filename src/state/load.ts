import { lazyChunk } from '../core/lazy-chunk.js';

// The state layer's code that loads on first use, one loader per feature: the account mirror on
// `account.mirror()` (mirror-handle.ts starts it), the wait for an order's outcome on
// `orders.waitForOutcome()`. The checks of their arguments stay with the callers
// (wait-checks.ts, mirror-host.ts), so a bad argument fails before anything loads.

/** The account mirror (account-mirror.ts and what it alone uses: the view, the feed, `waitFor`). */
export const loadMirror = lazyChunk('account mirror', () => import('./account-mirror.js'));

/** `orders.waitForOutcome` (order-outcome.ts). */
export const loadOutcomeWait = lazyChunk('order waits', () => import('./order-outcome.js'));
