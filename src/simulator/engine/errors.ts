import { ErrorCode, type ErrorCodeName, lookupErrorCode } from '../../generated/errors.js';

/** The field a code-2 refusal is about, so the HTTP layer can answer with the extended body. */
export interface VenueErrorField {
  location: string;
  message: string;
  invalidValue?: string;
}

/** A business rule refused the call; the HTTP layer turns it into `{code, message}` with `status`. */
export class VenueError extends Error {
  override readonly name = 'VenueError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly field?: VenueErrorField,
  ) {
    super(message);
  }
}

/**
 * The error the catalog (openapi/errors.yaml, src/generated/errors.ts) names `name`: its code and
 * the HTTP status the catalog gives it, so neither is restated here.
 */
function fromCatalog(name: ErrorCodeName, message: string, field?: VenueErrorField): VenueError {
  return new VenueError(statusOf(name), ErrorCode[name], message, field);
}

function statusOf(name: ErrorCodeName): number {
  const status = lookupErrorCode(ErrorCode[name])?.http;
  if (status == null) throw new Error(`error catalog: ${name} has no HTTP status`);
  return status;
}

/** Code 2 (malformed request) raised by the engine for a rule the request schema cannot express. */
export function invalidField(location: string, message: string, invalidValue?: string): VenueError {
  const field: VenueErrorField = { location, message };
  if (invalidValue !== undefined) field.invalidValue = invalidValue;
  return fromCatalog('InvalidRequest', `Invalid request: ${location} ${message}`, field);
}

/** The engine's wording of each venue error it raises, by the catalog's name for it. */
const wording = {
  AuctionLocked: (id: number) => `Auction ${id} is in its lock window; cancellations are not accepted`,
  AuctionSettling: (msg: string) => msg,
  InsufficientBalance: (msg: string) => msg,
  InvalidWallet: (id: string) => `Wallet ${id} is not a stablecoin wallet of the caller`,
  WalletNotFound: (id: string) => `Wallet ${id} not found`,
  IdempotencyKeyReused: (key: string) => `Idempotency key ${key} was already used with different parameters`,
  FeeChangeNotMoreCompetitive: (msg: string) => msg,
  SelfMatch: (id: number, side: string) =>
    `An open ${side} order of the caller already rests in auction ${id}`,
  InvalidFiatAccount: (id: string) => `Fiat account ${id} is not a fiat account of the caller`,
  MaxOrdersPerAuction: (cap: number, id: number) =>
    `Maximum of ${cap} orders per auction reached in auction ${id}; wait for the next cycle`,
  TransactionLimitExceeded: (limit: string) => `Amount exceeds the transaction limit of ${limit} USD`,
  EntityNotEligible: () => 'Entity is not eligible for the match venue',
  WithdrawalExceedsBalance: (msg: string) => msg,
  WithdrawalInvalid: (msg: string) => msg,
  AccountNotFound: () => 'Cannot find the venue wallet for this entity',
  InvalidWithdrawalDestination: (id: string) =>
    `Fiat account ${id} is not a withdrawal destination of the caller`,
  VenueWalletInvalid: () => 'Venue wallet invalid',
  // The catalog's 156003 is the platform's "transaction" not found; the venue answers it for an order.
  TransactionNotFound: (id: string) => `Order ${id} not found or not accessible`,
} satisfies { [N in ErrorCodeName]?: (...args: never[]) => string };

type Wording = typeof wording;

/** One builder per venue error the engine raises: `venueError.AuctionLocked(id)`, status and code from the catalog. */
export const venueError = Object.fromEntries(
  Object.entries(wording).map(([name, say]) => {
    statusOf(name as ErrorCodeName); // a catalog that no longer gives one a status fails at import
    const build = (...args: unknown[]) =>
      fromCatalog(name as ErrorCodeName, (say as (...a: unknown[]) => string)(...args));
    return [name, build];
  }),
) as { readonly [N in keyof Wording]: (...args: Parameters<Wording[N]>) => VenueError };
