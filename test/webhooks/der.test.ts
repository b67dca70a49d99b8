import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { createSelfSignedCertificate } from 'match-venue/webhooks/testing';
import { describe, expect, it } from 'vitest';
import { integer, oid, time, tlv } from '../../src/webhooks/testing/der.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('DER encoder', () => {
  it('encodes lengths in short and long form', () => {
    expect(hex(tlv(0x04, new Uint8Array(3)))).toBe('0403000000');
    expect(hex(tlv(0x04, new Uint8Array(200))).slice(0, 6)).toBe('0481c8');
    expect(hex(tlv(0x04, new Uint8Array(300))).slice(0, 8)).toBe('0482012c');
  });

  it('encodes integers minimally, with a sign byte when the top bit is set', () => {
    expect(hex(integer(0n))).toBe('020100');
    expect(hex(integer(127n))).toBe('02017f');
    expect(hex(integer(128n))).toBe('02020080');
    expect(hex(integer(65537n))).toBe('0203010001');
  });

  it('encodes object identifiers', () => {
    expect(hex(oid('2.5.4.3'))).toBe('0603550403');
    expect(hex(oid('1.2.840.113549.1.1.11'))).toBe('06092a864886f70d01010b');
  });

  it('encodes UTCTime before 2050 and GeneralizedTime from 2050', () => {
    expect(Buffer.from(time(new Date('2024-02-03T04:05:06.789Z'))).toString('latin1')).toBe(
      '\x17\x0d240203040506Z',
    );
    expect(Buffer.from(time(new Date('2050-01-01T00:00:00Z'))).toString('latin1')).toBe(
      '\x18\x0f20500101000000Z',
    );
  });
});

describe('createSelfSignedCertificate', () => {
  const keyPair = generateKeyPairSync('rsa', { modulusLength: 2048 });

  it('produces a certificate node:crypto parses, self-signed by the key, with the asked validity', () => {
    const pem = createSelfSignedCertificate({
      ...keyPair,
      commonName: 'sim.local',
      notBefore: new Date('2030-01-01T00:00:00Z'),
      notAfter: new Date('2060-06-01T12:00:00Z'),
    });
    const cert = new X509Certificate(pem);
    expect(cert.subject).toBe('CN=sim.local');
    expect(cert.issuer).toBe('CN=sim.local');
    expect(cert.verify(keyPair.publicKey)).toBe(true);
    expect(cert.publicKey.export({ type: 'spki', format: 'pem' })).toBe(
      keyPair.publicKey.export({ type: 'spki', format: 'pem' }),
    );
    expect(Date.parse(cert.validFrom)).toBe(Date.parse('2030-01-01T00:00:00Z'));
    expect(Date.parse(cert.validTo)).toBe(Date.parse('2060-06-01T12:00:00Z'));
  });

  it('refuses a non-RSA key', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => createSelfSignedCertificate(ec)).toThrow(/RSA/);
  });
});
