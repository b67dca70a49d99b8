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
export { decodeSocketData, encodeSocketData, SOCKET_MONEY_FORMAT, type SocketMoneyFormat } from './codec.js';
export { connectStream } from './connection.js';
export * from './events.js';
export type { ReconcilableOrder } from './order-tracker.js';
export {
  type Channel,
  type ClientFrame,
  type ServerFrame,
  SUBPROTOCOL,
  TICKET_PROTOCOL_PREFIX,
  WS_PATH,
} from './protocol.js';
export type { OverflowPolicy } from './queue.js';
export type { OrderPage, OrderQuery } from './reconcile.js';
