import { randomUUID } from 'node:crypto';
import { type CryptoKey, errors, generateKeyPair, jwtVerify, SignJWT } from 'jose';

/** Why a ticket was refused; every reason maps to HTTP 401 on the upgrade. */
export type TicketErrorReason = 'missing' | 'expired' | 'invalid' | 'reused';

export class TicketError extends Error {
  override readonly name = 'TicketError';
  constructor(
    readonly reason: TicketErrorReason,
    message: string,
  ) {
    super(message);
  }
}

export interface TicketAuthorityOptions {
  issuer?: string;
  audience?: string;
  /** Ticket lifetime; the spec leaves it open, a short default limits the damage of a leaked ticket. */
  ttlMs?: number;
  /** The simulator's clock (manual in tests), so expiry follows simulated time. */
  now: () => number;
  /** An ES256 key pair to sign with (e.g. shared by several authorities); default: a fresh one. */
  keys?: { privateKey: CryptoKey; publicKey: CryptoKey };
}

export const DEFAULT_TICKET_TTL_MS = 30_000;
export const DEFAULT_TICKET_ISSUER = 'match-venue-simulator';
export const DEFAULT_TICKET_AUDIENCE = 'service-match.v1';

/**
 * Issues and checks the WebSocket tickets: ES256 JWTs, single use.
 * The key pair lives only in memory, so tickets die with the simulator.
 */
export class TicketAuthority {
  readonly issuer: string;
  readonly audience: string;
  readonly ttlMs: number;
  // jti -> expiry (ms). A used jti only has to be remembered until its ticket would have expired anyway.
  private readonly used = new Map<string, number>();

  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    private readonly now: () => number,
    opts: TicketAuthorityOptions,
  ) {
    this.issuer = opts.issuer ?? DEFAULT_TICKET_ISSUER;
    this.audience = opts.audience ?? DEFAULT_TICKET_AUDIENCE;
    this.ttlMs = opts.ttlMs ?? DEFAULT_TICKET_TTL_MS;
    if (!Number.isFinite(this.ttlMs) || this.ttlMs <= 0) {
      throw new RangeError('ttlMs must be a positive number of milliseconds');
    }
  }

  static async create(opts: TicketAuthorityOptions): Promise<TicketAuthority> {
    const { privateKey, publicKey } = opts.keys ?? (await generateKeyPair('ES256'));
    return new TicketAuthority(privateKey, publicKey, opts.now, opts);
  }

  async issue(entityId: string): Promise<{ ticket: string; expiresAt: string }> {
    const nowMs = this.now();
    // JWT times are whole seconds; rounding exp up keeps a ticket from being born expired.
    const iat = Math.floor(nowMs / 1000);
    const exp = Math.ceil((nowMs + this.ttlMs) / 1000);
    const ticket = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(entityId)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.privateKey);
    return { ticket, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** Verifies and consumes the ticket. Throws TicketError; never returns for a bad ticket. */
  async verify(ticket: string | undefined | null): Promise<{ entityId: string }> {
    if (ticket === undefined || ticket === null || ticket === '') {
      throw new TicketError('missing', 'ticket missing');
    }
    const nowMs = this.now();
    this.forgetExpired(nowMs);
    let payload: { sub?: string; jti?: string; exp?: number };
    try {
      ({ payload } = await jwtVerify(ticket, this.publicKey, {
        algorithms: ['ES256'],
        issuer: this.issuer,
        audience: this.audience,
        currentDate: new Date(nowMs),
        requiredClaims: ['sub', 'jti', 'exp'],
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new TicketError('expired', 'ticket expired');
      throw new TicketError('invalid', 'ticket invalid');
    }
    const { sub, jti, exp } = payload;
    if (typeof sub !== 'string' || typeof jti !== 'string' || typeof exp !== 'number') {
      throw new TicketError('invalid', 'ticket invalid');
    }
    if (this.used.has(jti)) throw new TicketError('reused', 'ticket already used');
    this.used.set(jti, exp * 1000);
    return { entityId: sub };
  }

  private forgetExpired(nowMs: number): void {
    for (const [jti, expMs] of this.used) {
      if (expMs <= nowMs) this.used.delete(jti);
    }
  }
}

/** What the simulator exposes as `sim.tickets`: issue and verify, on the simulator clock. */
export interface TicketIssuer {
  /** A fresh ticket for `entityId`. */
  issue(entityId: string): Promise<{
    /** The JWT; a secret. */
    ticket: string;
    /** When it expires, ISO 8601, on the simulator clock. */
    expiresAt: string;
  }>;
  /** The entity a ticket names; rejects with a TicketError for a missing, expired, invalid or reused one. */
  verify(ticket: string | undefined): Promise<{
    /** The entity the ticket was issued to. */
    entityId: string;
  }>;
}

/**
 * A TicketIssuer whose authority is made in the background: key generation is async, so the first
 * issue/verify waits for it and construction stays synchronous.
 */
export function lazyTicketIssuer(options: TicketAuthorityOptions): TicketIssuer {
  const authority = TicketAuthority.create(options);
  authority.catch(() => {});
  return {
    issue: async (entityId) => (await authority).issue(entityId),
    verify: async (ticket) => (await authority).verify(ticket),
  };
}
