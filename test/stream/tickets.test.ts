import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TicketAuthority, TicketError } from '../../src/simulator/ws/tickets.js';

async function reasonOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof TicketError) return err.reason;
    throw err;
  }
  return 'accepted';
}

describe('TicketAuthority', () => {
  it('issues an ES256 JWT bound to the entity, with iss/aud/sub/jti/iat/exp', async () => {
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    const auth = await TicketAuthority.create({ now: () => now, ttlMs: 30_000 });
    const { ticket, expiresAt } = await auth.issue('entity-1');
    expect(expiresAt).toBe('2026-01-01T00:00:30.000Z');
    const [header, payload] = ticket
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'ES256' });
    expect(payload).toMatchObject({
      sub: 'entity-1',
      iss: auth.issuer,
      aud: auth.audience,
      iat: now / 1000,
      exp: now / 1000 + 30,
    });
    expect(typeof payload.jti).toBe('string');
    now += 29_000;
    await expect(auth.verify(ticket)).resolves.toEqual({ entityId: 'entity-1' });
  });

  it('refuses a missing ticket', async () => {
    const auth = await TicketAuthority.create({ now: () => 0 });
    expect(await reasonOf(auth.verify(''))).toBe('missing');
    expect(await reasonOf(auth.verify(undefined))).toBe('missing');
  });

  it('refuses an expired ticket by the injected clock', async () => {
    let now = 1_000_000;
    const auth = await TicketAuthority.create({ now: () => now, ttlMs: 5_000 });
    const { ticket } = await auth.issue('e');
    now += 5_000;
    expect(await reasonOf(auth.verify(ticket))).toBe('expired');
  });

  it('refuses a tampered ticket and one signed by another authority', async () => {
    const auth = await TicketAuthority.create({ now: () => 0 });
    const other = await TicketAuthority.create({ now: () => 0 });
    const { ticket } = await auth.issue('a');
    const [h, p, s] = ticket.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'b' })).toString('base64url')}.${s}`;
    expect(await reasonOf(auth.verify(forged))).toBe('invalid');
    expect(await reasonOf(auth.verify('not.a.jwt'))).toBe('invalid');
    expect(await reasonOf(auth.verify((await other.issue('a')).ticket))).toBe('invalid');
  });

  it('checks issuer and audience even when the signature is good', async () => {
    const keys = await generateKeyPair('ES256');
    const auth = await TicketAuthority.create({ now: () => 0, keys });
    const otherIssuer = await TicketAuthority.create({ now: () => 0, keys, issuer: 'someone-else' });
    const otherAudience = await TicketAuthority.create({ now: () => 0, keys, audience: 'service-other.v1' });
    expect(await reasonOf(auth.verify((await otherIssuer.issue('a')).ticket))).toBe('invalid');
    expect(await reasonOf(auth.verify((await otherAudience.issue('a')).ticket))).toBe('invalid');
    // Same key, same claims: accepted, so the two refusals above come from iss and aud alone.
    const twin = await TicketAuthority.create({ now: () => 0, keys });
    expect(await reasonOf(auth.verify((await twin.issue('a')).ticket))).toBe('accepted');
  });

  it('accepts only ES256: an HS256 token with the right claims is refused', async () => {
    const auth = await TicketAuthority.create({ now: () => 0 });
    const hs = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(auth.issuer)
      .setAudience(auth.audience)
      .setSubject('a')
      .setJti('j')
      .setExpirationTime(60)
      .sign(new TextEncoder().encode('a-shared-secret-of-enough-length!'));
    expect(await reasonOf(auth.verify(hs))).toBe('invalid');
  });

  it('accepts a ticket once, then refuses it as reused', async () => {
    const auth = await TicketAuthority.create({ now: () => 0 });
    const { ticket } = await auth.issue('a');
    const results = await Promise.all([reasonOf(auth.verify(ticket)), reasonOf(auth.verify(ticket))]);
    expect(results.sort()).toEqual(['accepted', 'reused']);
  });

  it('rejects a non-positive ttl', async () => {
    await expect(TicketAuthority.create({ now: () => 0, ttlMs: 0 })).rejects.toThrow(RangeError);
  });
});
