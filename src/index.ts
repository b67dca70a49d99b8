/**
 * The client: {@link MatchVenue} and its resources with the API's data types grouped by resource,
 * the errors it throws (each with a stable `kind`), the money helpers and the stream's event types.
 * Test support (the shared mock-mode simulator, `createMockVenue`) is `match-venue/testing`.
 *
 * @module match-venue
 */

// The client, its options and what every call shares.
export type { Environment } from './client/config.js';
export { MatchVenue, type MatchVenueOptions } from './client/match-venue.js';
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
export type { Logger, LogLevel, LogLevelOption } from './core/logger.js';
export { Page, PagePromise, type PaginationInfo } from './core/pagination.js';
export type { RequestOptions } from './core/request.js';
export type { Absence, FinalAbsence, PendingAbsence, ResolveOptions } from './core/resolve-unknown.js';
export type { RetrySettings } from './core/retry.js';
export type { FetchLike, WebHandler } from './core/transport.js';

// Errors.
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
  type SimulatorErrorKind,
  type UnknownOutcomeOperation,
  ValidationError,
  type ValidationIssue,
  WaitTimeoutError,
  type WebhookErrorKind,
} from './core/error.js';
export { ErrorCode, type ErrorCodeInfo, errorCatalog, lookupErrorCode } from './generated/errors.js';

// Money.
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

// Observing calls: hooks (`venue.on`) and diagnostics channels.
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
export type { OperationId } from './generated/endpoints.js';

// The API's data shared by every resource.
export type {
  Currency,
  DecimalAmount,
  FeeBps,
  HttpsUrl,
  IdempotencyKey,
  // The API's money shape; `Money` (core/money.ts) is the helpers' name for the same two fields.
  Money as ApiMoney,
  Pagination,
} from './generated/models.js';

// Each resource (as a type: MatchVenue makes them) with its parameters and the API's data it
// answers with: `venue.account`, `venue.orders`, ...
export type { Account, AccountSummary } from './resources/account.js';
export type { Configuration, ConfigurationResource } from './resources/configuration.js';
export type {
  BurnOrder,
  BurnOrderRequest,
  CancelAllResult,
  CancelOrderRequest,
  CancelOrderResult,
  ListOrdersParams,
  ListOrdersQuery,
  MintOrder,
  MintOrderRequest,
  ModifyOrderRequest,
  ModifyOrderResult,
  Order,
  OrderAmount,
  OrderFill,
  OrderLineage,
  OrderResolution,
  OrderStatus,
  OrderType,
  Orders,
  PlaceOrderParams,
  PlaceOrderRequest,
  PlaceOrderResult,
  PostFillAction,
} from './resources/orders.js';
export {
  type SnsSubscriptions,
  SubscriptionPendingError,
  type SubscriptionResolution,
  type V1Subscription,
  type V1SubscriptionCreateParams,
  type V1SubscriptionDetail,
  type V1SubscriptionRequest,
} from './resources/sns-subscriptions.js';
export type { Stream, WsTicket } from './resources/stream.js';
export type {
  FxSubscriptionParams,
  FxSubscriptionRequest,
  NotificationPublicKey,
  NotificationSubscription,
  PaymentsNetworkSubscriptionParams,
  PaymentsNetworkSubscriptionRequest,
  RestrictedNotificationSubscription,
  TransferNotificationSubscription,
  TransferSubscriptionParams,
  TransferSubscriptionRequest,
  WalletSubscriptionParams,
  WalletSubscriptionRequest,
  WebhookSubscriptions,
} from './resources/webhook-subscriptions.js';
export type {
  CreateWithdrawalParams,
  CreateWithdrawalRequest,
  Withdrawal,
  WithdrawalAmount,
  WithdrawalResolution,
  Withdrawals,
} from './resources/withdrawals.js';

// The account mirror (`venue.account.mirror()`) and waits.
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

// The venue's WebSocket (`venue.stream.connect()`) and its events.
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
