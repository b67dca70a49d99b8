export { type BackoffOptions, backoffDelay } from './backoff.js';
export { decodeSocketData, encodeSocketData, SOCKET_MONEY_FORMAT, type SocketMoneyFormat } from './codec.js';
export {
  connectStream,
  type ReconcilableOrder,
  type StateChange,
  type StreamHost,
  type StreamOptions,
  type StreamState,
  type StreamStats,
  type StreamSubscription,
  type VenueStream,
} from './connection.js';
export * from './events.js';
export {
  type Channel,
  type ClientFrame,
  type ServerFrame,
  SUBPROTOCOL,
  TICKET_PROTOCOL_PREFIX,
  WS_PATH,
} from './protocol.js';
export type { OverflowPolicy } from './queue.js';
