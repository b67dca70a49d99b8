export type { Channel } from '../contract/ws-protocol.js';
export type {
  BackoffOptions,
  StateChange,
  StreamHost,
  StreamOptions,
  StreamState,
  StreamStats,
  StreamSubscription,
  StreamSummary,
  VenueStream,
} from './api.js';
export { connectStream } from './connection.js';
export { StreamGaveUpError } from './errors.js';
export * from './events.js';
export type { OrderPage, OrderQuery } from './order-reads.js';
export type { ReconcilableOrder } from './order-tracker.js';
export type { OverflowPolicy } from './queue.js';
