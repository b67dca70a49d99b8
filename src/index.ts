/**
 * The client: {@link MatchVenue} and its resources, the errors it throws (each with a stable
 * `kind`) and the money helpers. The API's data types and each call's parameters are reached through
 * their resource, one namespace per resource: `Orders.Order`, `Orders.PlaceOrderParams`,
 * `Withdrawals.CreateWithdrawalParams`, `Stream.StreamEvent`, `Account.MirrorOptions`.
 * Test support (the shared mock-mode simulator, `createMockVenue`) is `match-venue/testing`.
 *
 * @module match-venue
 */

// The client, its options and what every call shares.
export type { Environment } from './client/config.js';
export { MatchVenue, type MatchVenueOptions } from './client/match-venue.js';
export { APIPromise, type ResponseInfo, type WithResponse } from './core/api-promise.js';
export type { Logger, LogLevel, LogLevelOption } from './core/logger.js';
export { Page, PagePromise, type PaginationInfo } from './core/pagination.js';
export type { RequestOptions } from './core/request.js';
export type { Absence, FinalAbsence, PendingAbsence, ResolveOptions } from './core/resolve-unknown.js';
export type { RetryOptions } from './core/retry.js';
export type { FetchLike, WebHandler } from './core/transport.js';

// Errors.
export { InvalidApiKeyError } from './core/api-key.js';
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
  type TestingErrorKind,
  type UnknownOutcomeOperation,
  ValidationError,
  type ValidationIssue,
  WaitTimeoutError,
} from './core/error.js';
export { ErrorCode, type ErrorCodeInfo, errorCatalog, lookupErrorCode } from './generated/errors.js';
export { SubscriptionPendingError } from './resources/sns-subscriptions.js';
export { StreamGaveUpError } from './stream/index.js';

// Money: the API's `{ amount, currency }` and the helpers the README teaches.
export {
  addMoney,
  compareMoney,
  type FormatMoneyOptions,
  formatMoney,
  type Money,
  money,
  moneyEquals,
  parseMoney,
  sumMoney,
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

// The API's scalars, shared by every resource's data.
export type {
  Currency,
  DecimalAmount,
  FeeBps,
  HttpsUrl,
  IdempotencyKey,
  Pagination,
} from './generated/models.js';

// Each resource (as a type: MatchVenue makes them). Its data and parameters are reached through it,
// one namespace per resource: `Orders.Order`, `Orders.PlaceOrderParams`, `Stream.StreamEvent`,
// `Account.MirrorOptions` (the mirror is `venue.account`'s), ...
export type { Account } from './resources/account.js';
export type { ConfigurationResource } from './resources/configuration.js';
export type { Orders } from './resources/orders.js';
export type { SnsSubscriptions } from './resources/sns-subscriptions.js';
export type { Stream } from './resources/stream.js';
export type { WebhookSubscriptions } from './resources/webhook-subscriptions.js';
export type { Withdrawals } from './resources/withdrawals.js';

// The account mirror's retention default, and the stream's event guards.
export { DEFAULT_RETENTION_MS } from './state/index.js';
export { isEvent, isKnownEvent } from './stream/index.js';
