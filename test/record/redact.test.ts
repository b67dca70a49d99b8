import { describe, expect, it } from 'vitest';
import { redactForCassette } from '../../src/contract/cassette-redact.js';

// The rule every cassette line passes through: each kind of secret in any string at any depth, and
// fields named as secrets; ids, amounts and ordinary text untouched.

describe('redactForCassette', () => {
  it('removes keys, credentials, tickets and JWTs wherever they are, and keeps the rest', () => {
    const key = 'TEST_API_KEY:abc:the-secret-part-99';
    const value = {
      orderId: 'ord_1',
      amount: { amount: '12.50', currency: 'USD' },
      cents: 1250,
      notes: [
        `key ${key}`,
        'echo the-secret-part-99 back',
        'other LIVE_API_KEY:xyz:s3cr3t-value',
        'auth: BEARER abc.def',
        'protocols service-match.v1, ticket.eyJhbGciOiJFUzI1NiJ9.e30.sig',
        'jwt eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln inside',
        'plain text: a ticket, its bearer',
      ],
      nested: {
        Ticket: 'abc',
        token: 'tok',
        Signature: 'sig==',
        SigningCertURL: 'https://x/y.pem',
        kept: null,
      },
    };
    expect(redactForCassette(value, [key])).toEqual({
      orderId: 'ord_1',
      amount: { amount: '12.50', currency: 'USD' },
      cents: 1250,
      notes: [
        'key [redacted]',
        'echo [redacted] back',
        'other LIVE_API_KEY:[redacted]',
        'auth: BEARER [redacted]',
        'protocols service-match.v1, ticket.[redacted]',
        'jwt [redacted] inside',
        'plain text: a ticket, its bearer',
      ],
      nested: {
        Ticket: '[redacted]',
        token: '[redacted]',
        Signature: '[redacted]',
        SigningCertURL: '[redacted]',
        kept: null,
      },
    });
  });
});
