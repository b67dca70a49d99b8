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

/** Code 2 (malformed request) raised by the engine for a rule the request schema cannot express. */
export function invalidField(location: string, message: string, invalidValue?: string): VenueError {
  const field: VenueErrorField = { location, message };
  if (invalidValue !== undefined) field.invalidValue = invalidValue;
  return new VenueError(400, 2, `Invalid request: ${location} ${message}`, field);
}

export const venueError = {
  auctionLocked: (id: number) =>
    new VenueError(400, 136001, `Auction ${id} is in its lock window; cancellations are not accepted`),
  auctionSettling: (msg: string) => new VenueError(400, 136002, msg),
  insufficientBalance: (msg: string) => new VenueError(400, 137001, msg),
  invalidWallet: (id: string) =>
    new VenueError(400, 137002, `Wallet ${id} is not a stablecoin wallet of the caller`),
  walletNotFound: (id: string) => new VenueError(400, 137003, `Wallet ${id} not found`),
  idempotencyKeyReused: (key: string) =>
    new VenueError(409, 137004, `Idempotency key ${key} was already used with different parameters`),
  feeNotMoreCompetitive: (msg: string) => new VenueError(400, 137005, msg),
  selfMatch: (id: number, side: string) =>
    new VenueError(409, 137006, `An open ${side} order of the caller already rests in auction ${id}`),
  invalidFiatAccount: (id: string) =>
    new VenueError(400, 137007, `Fiat account ${id} is not a fiat account of the caller`),
  maxOrdersPerAuction: (cap: number, id: number) =>
    new VenueError(
      400,
      137008,
      `Maximum of ${cap} orders per auction reached in auction ${id}; wait for the next cycle`,
    ),
  transactionLimit: (limit: string) =>
    new VenueError(400, 137009, `Amount exceeds the transaction limit of ${limit} USD`),
  notEligible: () => new VenueError(400, 137010, 'Entity is not eligible for the match venue'),
  withdrawalExceedsBalance: (msg: string) => new VenueError(400, 138001, msg),
  withdrawalInvalid: (msg: string) => new VenueError(400, 138002, msg),
  accountNotFound: () => new VenueError(404, 138003, 'Cannot find the venue wallet for this entity'),
  invalidWithdrawalDestination: (id: string) =>
    new VenueError(400, 138004, `Fiat account ${id} is not a withdrawal destination of the caller`),
  venueWalletInvalid: () => new VenueError(400, 139001, 'Venue wallet invalid'),
  orderNotFound: (id: string) => new VenueError(404, 156003, `Order ${id} not found or not accessible`),
} as const;
