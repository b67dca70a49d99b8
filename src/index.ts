export { MatchVenue, type MatchVenueOptions } from './client.js';
export type { FinalRequest, HttpMethod, QueryValue, RequestOptions } from './core/api-client.js';
export {
  type ApiKeyEnvironment,
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
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  InternalServerError,
  InvalidArgumentError,
  isApiError,
  MatchVenueError,
  NotFoundError,
  OutcomeUnknownError,
  PermissionDeniedError,
  RateLimitError,
  type ResponseHeaders,
  ResponseValidationError,
  type UnknownOutcomeOperation,
  ValidationError,
  type ValidationIssue,
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
export type { RetrySettings } from './core/retry.js';
export type { FetchLike, WebHandler } from './core/transport.js';
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
  ListOrdersQuery,
  MintOrder,
  MintOrderRequest,
  ModifyOrderRequest,
  ModifyOrderResult,
  NotificationPublicKey,
  NotificationSubscription,
  Order,
  OrderFill,
  OrderLineage,
  OrderStatus,
  OrderType,
  Pagination,
  PlaceOrderRequest,
  PlaceOrderResult,
  PostFillAction,
  V1Subscription,
  V1SubscriptionDetail,
  Withdrawal,
  WsTicket,
} from './generated/models.js';
export type { Environment } from './internal/config.js';
export {
  getMockSimulator,
  type MockBinding,
  type MockModeTypes,
  type MockSimulator,
} from './internal/mock-mode.js';
export type {
  FxSubscriptionParams,
  PaymentsNetworkSubscriptionParams,
  RestrictedNotificationSubscription,
  TransferNotificationSubscription,
  TransferSubscriptionParams,
  WalletSubscriptionParams,
} from './resources/notifications.js';
export type { ListOrdersParams, PlaceOrderParams } from './resources/orders.js';
export { SubscriptionPendingError, type V1SubscriptionCreateParams } from './resources/subscriptions.js';
export type { CreateWithdrawalParams } from './resources/withdrawals.js';
export {
  type AccountEvent,
  isEvent,
  type MarketEvent,
  type StateChange,
  type StreamEvent,
  StreamGaveUpError,
  type StreamOptions,
  type StreamState,
  type StreamSubscription,
  type VenueStream,
} from './stream/index.js';
