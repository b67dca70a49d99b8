// The state layer: the account mirror (`venue.account.mirror()`) and the waits for an order
// (`venue.orders.waitForOutcome()`, `mirror.waitFor()`). Client-side: it imports core, stream,
// contract and generated, never the simulator or testing (.dependency-cruiser.cjs).

export { Mirror, type MirrorHost } from './account-mirror.js';
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
export { checkOutcomeOptions, type OutcomeHost, waitForOutcome } from './order-outcome.js';
export { badOrderId } from './wait-control.js';
