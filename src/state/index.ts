// The state layer: the account mirror (`venue.account.mirror()`) and the waits for an order
// (`venue.orders.waitForOutcome()`, `mirror.waitFor()`). Client-side: it imports core, stream,
// contract and generated, never the simulator or testing (.dependency-cruiser.cjs). The mirror and
// the waits load on first use (load.ts): nothing here imports their code statically.

export type {
  AccountMirror,
  ChangeSource,
  MirrorChange,
  MirrorOptions,
  MirrorOrderFilter,
  MirrorWaitOptions,
  MirrorWithdrawal,
  OrderChange,
  OrderRemovedChange,
  SummaryChange,
  UnknownEntry,
  UnknownEntryState,
  UnknownKeyChange,
  WaitForOutcomeOptions,
  WithdrawalChange,
  WithdrawalRemovedChange,
} from './api.js';
export { DEFAULT_RETENTION_MS } from './api.js';
export { ClientState } from './client-state.js';
export { loadOutcomeWait } from './load.js';
export { MirrorHandle } from './mirror-handle.js';
export type { MirrorHost } from './mirror-host.js';
export type { OutcomeHost } from './order-outcome.js';
export { badOrderId, checkOutcomeOptions } from './wait-checks.js';
