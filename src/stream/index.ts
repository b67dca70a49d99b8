export type { Channel } from '../contract/ws-protocol.js';
export type {
  StateChange,
  StreamHost,
  StreamOptions,
  StreamState,
  StreamStats,
  StreamSubscription,
  StreamSummary,
  VenueStream,
} from './api.js';
export { type BackoffOptions, backoffDelay } from './backoff.js';
export { connectStream } from './connection.js';
export * from './events.js';
export type { ReconcilableOrder } from './order-tracker.js';
export type { OverflowPolicy } from './queue.js';
export type { OrderPage, OrderQuery } from './reconcile.js';
