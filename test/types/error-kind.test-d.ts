import type {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  InternalServerError,
  InvalidApiKeyError,
  InvalidArgumentError,
  MatchVenueError,
  MatchVenueErrorKind,
  NotFoundError,
  OrderFinalError,
  OutcomeUnknownError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  StreamGaveUpError,
  SubscriptionPendingError,
  ValidationError,
  WaitTimeoutError,
} from 'match-venue';
import type {
  ClockJumpInProgressError,
  ClockJumpTooLargeError,
  MarketConfigError,
  CassetteError,
  ScenarioError,
  SnapshotError,
  StoreInUseError,
  StoreLayoutError,
  StoreUnavailableError,
  StoreWriteError,
} from 'match-venue/simulator';
import type { UnrecordedRequestError } from 'match-venue/testing';
import type { WebhookErrorCode } from 'match-venue/webhooks';
import { describe, expectTypeOf, it } from 'vitest';

describe('err.kind', () => {
  it('is a literal union: a misspelt case in a switch does not compile', () => {
    const describe = (err: MatchVenueError): string => {
      switch (err.kind) {
        case 'MV_TIMEOUT':
          return 'timed out';
        // @ts-expect-error 'MV_TIMEDOUT' is no kind: the typo is caught by the compiler
        case 'MV_TIMEDOUT':
          return 'never';
        default:
          return err.kind;
      }
    };
    expectTypeOf(describe).returns.toEqualTypeOf<string>();
    expectTypeOf<MatchVenueError['kind']>().toEqualTypeOf<MatchVenueErrorKind>();
    // @ts-expect-error a string is not a kind
    const kind: MatchVenueErrorKind = 'MV_CONNECTON';
    expectTypeOf(kind).toEqualTypeOf<MatchVenueErrorKind>();
  });

  it('is exactly the kinds of the classes and the webhook codes: no member without a class', () => {
    type ClassKinds =
      | NonNullable<typeof MatchVenueError.kind & 'MV_ERROR'>
      | 'MV_API_ERROR'
      | typeof BadRequestError.kind
      | typeof AuthenticationError.kind
      | typeof PermissionDeniedError.kind
      | typeof NotFoundError.kind
      | typeof ConflictError.kind
      | typeof RateLimitError.kind
      | typeof InternalServerError.kind
      | 'MV_CONNECTION'
      | typeof APIConnectionTimeoutError.kind
      | typeof APIUserAbortError.kind
      | typeof ValidationError.kind
      | typeof ResponseValidationError.kind
      | typeof OutcomeUnknownError.kind
      | typeof InvalidApiKeyError.kind
      | typeof ConfigurationError.kind
      | typeof InvalidArgumentError.kind
      | typeof SubscriptionPendingError.kind
      | typeof StreamGaveUpError.kind
      | typeof WaitTimeoutError.kind
      | typeof OrderFinalError.kind
      | WebhookErrorCode
      // The simulator's errors are on the same base (contract/base-error.ts).
      | typeof MarketConfigError.kind
      | typeof ScenarioError.kind
      | typeof CassetteError.kind
      | typeof SnapshotError.kind
      | typeof ClockJumpTooLargeError.kind
      | typeof ClockJumpInProgressError.kind
      | typeof StoreInUseError.kind
      | typeof StoreLayoutError.kind
      | typeof StoreUnavailableError.kind
      | typeof StoreWriteError.kind
      // The testing layer's: a replay asked a request its cassette does not hold.
      | typeof UnrecordedRequestError.kind;
    expectTypeOf<MatchVenueErrorKind>().toEqualTypeOf<ClassKinds>();
    // Each leaf class's static kind is its own literal, not the whole union.
    expectTypeOf<typeof BadRequestError.kind>().toEqualTypeOf<'MV_API_BAD_REQUEST'>();
    expectTypeOf<typeof APIConnectionTimeoutError.kind>().toEqualTypeOf<'MV_TIMEOUT'>();
    expectTypeOf<typeof SnapshotError.kind>().toEqualTypeOf<'SIM_SNAPSHOT_INVALID'>();
  });

  it('narrows with the class', () => {
    expectTypeOf<APIError['kind']>().toEqualTypeOf<
      | 'MV_API_ERROR'
      | 'MV_API_BAD_REQUEST'
      | 'MV_API_UNAUTHORIZED'
      | 'MV_API_FORBIDDEN'
      | 'MV_API_NOT_FOUND'
      | 'MV_API_CONFLICT'
      | 'MV_API_RATE_LIMITED'
      | 'MV_API_SERVER_ERROR'
    >();
    expectTypeOf<APIConnectionError['kind']>().toEqualTypeOf<'MV_CONNECTION' | 'MV_TIMEOUT'>();
  });
});
