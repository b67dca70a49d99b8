/**
 * The client: {@link MatchVenue} and its resources, the errors it throws (each with a stable
 * `kind`), the money helpers, the stream's event types and the API's data types.
 *
 * @module match-venue
 */

export { MatchVenue, type MatchVenueOptions } from './client.js';
export type { FinalRequest, HttpMethod, QueryValue, RequestOptions } from './core/api-client.js';
export {
  type ApiKeyEnvironment,
  type ApiKeyFault,
  type ApiKeyKind,
  InvalidApiKeyError,
  isWellFormedApiKey,
  type ParsedApiKey,
  parseApiKey,
} from './core/api-key.js';
export { APIPromise, type ResponseInfo, type WithResponse } from './core/api-promise.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  type APIErrorDetail,
  type APIErrorKind,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  type ConnectionErrorKind,
  InternalServerError,
  InvalidArgumentError,
  isApiError,
  MatchVenueError,
  type MatchVenueErrorKind,
  NotFoundError,
  OrderFinalError,
  OutcomeUnknownError,
  PermissionDeniedError,
  RateLimitError,
  type ResponseHeaders,
  ResponseValidationError,
  type UnknownOutcomeOperation,
  ValidationError,
  type ValidationIssue,
  WaitTimeoutError,
  type WebhookErrorKind,
} from './core/error.js';
export { type Logger, type LogLevel, type LogLevelOption, redact, redactText } from './core/logger.js';
export {
  type AmountInput,
  addMoney,
  compareMoney,
  type FormatMoneyOptions,
  formatMoney,
  fromCents,
  type Money,
  money,
  moneyEquals,
  parseMoney,
  subMoney,
  sumMoney,
  toCents,
  usd,
} from './core/money.js';
export { Page, PagePromise, type PaginationInfo } from './core/pagination.js';
export { path } from './core/path.js';
export type { Absence, FinalAbsence, PendingAbsence, ResolveOptions } from './core/resolve-unknown.js';
export type { RetrySettings } from './core/retry.js';
export type {
  AttemptError,
  ClientEvents,
  ListenerOptions,
  RequestEvent,
  RequestEventBase,
  ResponseEvent,
  RetryEvent,
  RetryReason,
} from './core/telemetry/index.js';
export { CHANNELS as DIAGNOSTICS_CHANNELS } from './core/telemetry/names.js';
export type { FetchLike, WebHandler } from './core/transport.js';
export type { OperationId } from './generated/endpoints.js';
export { ErrorCode, type ErrorCodeInfo, errorCatalog, lookupErrorCode } from './generated/errors.js';
export type {
  AccountSummary,
  BurnOrder,
  BurnOrderRequest,
  CancelAllResult,
  CancelOrderRequest,
  CancelOrderResult,
  Configuration,
  CreateWithdrawalRequest,
  Currency,
  DecimalAmount,
  FeeBps,
  FxSubscriptionRequest,
  HttpsUrl,
  IdempotencyKey,
  ListOrdersQuery,
  MintOrder,
  MintOrderRequest,
  ModifyOrderRequest,
  ModifyOrderResult,
  // The API's money shape; `Money` (core/money.ts) is the helpers' name for the same two fields.
  Money as ApiMoney,
  NotificationPublicKey,
  Order,
  OrderAmount,
  OrderFill,
  OrderLineage,
  OrderStatus,
  OrderType,
  Pagination,
  PaymentsNetworkSubscriptionRequest,
  PlaceOrderRequest,
  PlaceOrderResult,
  PostFillAction,
  TransferSubscriptionRequest,
  V1Subscription,
  V1SubscriptionDetail,
  V1SubscriptionRequest,
  WalletSubscriptionRequest,
  Withdrawal,
  WithdrawalAmount,
  WsTicket,
} from './generated/models.js';
export type { Environment } from './internal/config.js';
export {
  getMockSimulator,
  type MockBinding,
  type MockModeTypes,
  type MockSimulator,
} from './internal/mock-mode.js';
// The resource classes, as types: MatchVenue makes them (venue.orders, venue.stream, ...).
export type { Account } from './resources/account.js';
export type { ConfigurationResource } from './resources/configuration.js';
export type {
  FxSubscriptionParams,
  NotificationSubscription,
  Notifications,
  PaymentsNetworkSubscriptionParams,
  RestrictedNotificationSubscription,
  TransferNotificationSubscription,
  TransferSubscriptionParams,
  WalletSubscriptionParams,
} from './resources/notifications.js';
export type { ListOrdersParams, OrderResolution, Orders, PlaceOrderParams } from './resources/orders.js';
export type { Stream } from './resources/stream.js';
export {
  SubscriptionPendingError,
  type SubscriptionResolution,
  type Subscriptions,
  type V1SubscriptionCreateParams,
} from './resources/subscriptions.js';
export type { CreateWithdrawalParams, WithdrawalResolution, Withdrawals } from './resources/withdrawals.js';
export {
  type AccountMirror,
  type ChangeSource,
  DEFAULT_RETENTION_MS,
  type MirrorChange,
  type MirrorOptions,
  type MirrorOrderFilter,
  type MirrorWaitOptions,
  type MirrorWithdrawal,
  type OrderChange,
  type OrderRemovedChange,
  type SummaryChange,
  type UnknownEntry,
  type UnknownEntryState,
  type UnknownKeyChange,
  type WaitForOutcomeOptions,
  type WithdrawalChange,
  type WithdrawalRemovedChange,
} from './state/index.js';
export {
  type AccountEvent,
  type AuctionClearedEvent,
  type AuctionEventData,
  type AuctionLockedEvent,
  type AuctionOpenedEvent,
  type AuctionSettledEvent,
  type AuctionSnapshotEvent,
  type AuctionState,
  type BackoffOptions,
  type BalanceUpdatedEvent,
  type Channel,
  type Envelope,
  isEvent,
  isKnownEvent,
  type KnownAccountEvent,
  type KnownEvent,
  type KnownEventName,
  type KnownMarketEvent,
  type LastClear,
  type MarketEvent,
  type MarketSnapshot,
  type OrderAcceptedEvent,
  type OrderUpdatedEvent,
  type OverflowPolicy,
  type StateChange,
  type StreamAccountSummary,
  type StreamEvent,
  StreamGaveUpError,
  type StreamOptions,
  type StreamOrder,
  type StreamResyncEvent,
  type StreamState,
  type StreamStats,
  type StreamSubscription,
  type StreamWithdrawal,
  type UnknownStreamEvent,
  type VenueStream,
  type WithdrawalUpdatedEvent,
} from './stream/index.js';
