// The webhook verifiers check signatures with node:crypto where the runtime has it and with
// WebCrypto where it does not (edge workers). Both paths run here under Node: the WebCrypto one by
// hiding node:crypto from `process.getBuiltinModule` while a verifier is created, which is how the
// verifiers find it. Every genuine and signed fixture must come out the same on both.
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { createSnsVerifier, createV2Verifier, type SnsNotification } from 'match-venue/webhooks';
import {
  createSelfSignedCertificate,
  createSnsTestSigner,
  createV2TestSigner,
} from 'match-venue/webhooks/testing';
import { parseSigningCertificate } from '../../src/webhooks/sns-certificate.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  bitString,
  explicit,
  integer,
  oid,
  sequence,
  set,
  time,
  utf8String,
} from '../../src/webhooks/testing/der.js';
import { certificateServer, codeOf, genuineCertUrl, rawBody, snsFixture } from './fixtures.js';

/** Runs `create` as a runtime without node:crypto would: getBuiltinModule finds no such module. */
function withoutNodeCrypto<T>(create: () => T): T {
  const lookup = process.getBuiltinModule.bind(process);
  const hidden = (id: string) => (id === 'node:crypto' || id === 'crypto' ? undefined : lookup(id));
  const spy = vi.spyOn(process, 'getBuiltinModule').mockImplementation(hidden as typeof lookup);
  try {
    return create();
  } finally {
    spy.mockRestore();
  }
}

const paths = [
  { path: 'node:crypto', create: <T>(make: () => T) => make(), webCrypto: false },
  { path: 'WebCrypto', create: withoutNodeCrypto, webCrypto: true },
] as const;

const v2Signer = createV2TestSigner();
const snsSigner = createSnsTestSigner();

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(paths)('on the $path path', ({ create, webCrypto }) => {
  const subtleVerify = () => vi.spyOn(globalThis.crypto.subtle, 'verify');
  /** How many checks went through WebCrypto: all of them on its path, none on node:crypto's. */
  const webCryptoCalls = (checks: number) => (webCrypto ? checks : 0);

  it('verifies the four genuine SNS notifications (SignatureVersion 1 and 2)', async () => {
    const fetch = certificateServer(genuineCertUrl, snsFixture.signingCertificatePem);
    const sns = create(() => createSnsVerifier({ fetch, ignoreCertificateExpiry: true }));
    const calls = subtleVerify();
    for (const message of snsFixture.messages) {
      await expect(sns.verify(rawBody(message))).resolves.toEqual(message);
    }
    expect(calls).toHaveBeenCalledTimes(webCryptoCalls(snsFixture.messages.length));
  });

  it('refuses a genuine notification with one changed character, and a foreign signature', async () => {
    const fetch = certificateServer(genuineCertUrl, snsFixture.signingCertificatePem);
    const sns = create(() => createSnsVerifier({ fetch, ignoreCertificateExpiry: true }));
    for (const message of snsFixture.messages) {
      const tampered: SnsNotification = { ...message, Message: `${message.Message} ` };
      expect(await codeOf(sns.verify(rawBody(tampered)))).toBe('WEBHOOK_SIGNATURE_INVALID');
    }
    const v1 = snsFixture.messages.find((m) => m.SignatureVersion === '1')!;
    const v2 = snsFixture.messages.find((m) => m.SignatureVersion === '2')!;
    expect(await codeOf(sns.verify(rawBody({ ...v1, Signature: v2.Signature })))).toBe(
      'WEBHOOK_SIGNATURE_INVALID',
    );
    expect(await codeOf(sns.verify(rawBody({ ...v1, Signature: '%%%' })))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('checks the genuine certificate validity period', async () => {
    const fetch = certificateServer(genuineCertUrl, snsFixture.signingCertificatePem);
    const at = (iso: string) => create(() => createSnsVerifier({ fetch, now: () => Date.parse(iso) }));
    const message = rawBody(snsFixture.messages[0]!);
    await expect(at('2022-07-28T22:00:00Z').verify(message)).resolves.toMatchObject({ Type: 'Notification' });
    expect(await codeOf(at('2026-01-01T00:00:00Z').verify(message))).toBe('WEBHOOK_CERT_EXPIRED');
    expect(await codeOf(at('2021-01-01T00:00:00Z').verify(message))).toBe('WEBHOOK_CERT_NOT_YET_VALID');
  });

  it('verifies signed SNS messages of both versions and confirmations', async () => {
    const sns = create(() => createSnsVerifier({ fetch: snsSigner.fetch }));
    const messages = [
      snsSigner.notification({ Message: '{"a":1}', Subject: 's', signatureVersion: '1' }),
      snsSigner.notification({ Message: '{"a":2}', signatureVersion: '2' }),
      snsSigner.subscriptionConfirmation({ signatureVersion: '1' }),
      snsSigner.unsubscribeConfirmation({ signatureVersion: '2' }),
    ];
    for (const message of messages) await expect(sns.verify(rawBody(message))).resolves.toEqual(message);
  });

  it('verifies v2 deliveries and refuses a changed body or key', async () => {
    const verifier = create(() =>
      createV2Verifier({ baseUrl: 'https://api.platform.test', apiKey: 'K:a:b', fetch: v2Signer.fetch }),
    );
    const calls = subtleVerify();
    const delivery = v2Signer.notification({
      notificationType: 'transfers.completed',
      notification: { id: 't1' },
    });
    await expect(verifier.verify(delivery)).resolves.toEqual({
      keyId: v2Signer.keyId,
      notification: delivery.notification,
    });
    const changed = { ...delivery, body: delivery.body.replace('t1', 't2') };
    expect(await codeOf(verifier.verify(changed))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(calls).toHaveBeenCalledTimes(webCryptoCalls(2));

    const other = createV2TestSigner({ keyId: v2Signer.keyId });
    expect(await codeOf(verifier.verify(other.sign({ notificationType: 'x' })))).toBe(
      'WEBHOOK_SIGNATURE_INVALID',
    );
  });

  it('refuses a v2 signature that is not canonical DER', async () => {
    const verifier = create(() => createV2Verifier({ getPublicKey: async () => v2Signer.publicKeyRecord }));
    const { body, headers } = v2Signer.sign({ notificationType: 'payments.completed' });
    const der = Buffer.from(headers['X-Circle-Signature']!, 'base64');
    await expect(verifier.verify({ body, headers })).resolves.toEqual({
      keyId: v2Signer.keyId,
      notification: { notificationType: 'payments.completed' },
    });
    const variants = {
      'trailing byte': Buffer.concat([der, Buffer.of(0)]),
      'long-form length': Buffer.concat([Buffer.of(0x30, 0x81, der[1]!), der.subarray(2)]),
      'padded r': padR(der),
      truncated: der.subarray(0, der.length - 1),
    };
    for (const [variant, bytes] of Object.entries(variants)) {
      const forged = { ...headers, 'X-Circle-Signature': bytes.toString('base64') };
      expect(await codeOf(verifier.verify({ body, headers: forged })), variant).toBe(
        'WEBHOOK_SIGNATURE_INVALID',
      );
    }
  });
});

/** The same signature with r given one superfluous leading zero byte (BER, not DER). */
function padR(der: Buffer): Buffer {
  const rLength = der[3]!;
  const r = der.subarray(4, 4 + rLength);
  const rest = der.subarray(4 + rLength);
  const body = Buffer.concat([Buffer.of(0x02, rLength + 1, 0), r, rest]);
  return Buffer.concat([Buffer.of(0x30, body.length), body]);
}

describe('parseSigningCertificate', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificates = {
    'the genuine SNS certificate': snsFixture.signingCertificatePem,
    'a self-signed one with UTCTime': createSelfSignedCertificate(rsa),
    'a self-signed one with GeneralizedTime': createSelfSignedCertificate({
      ...rsa,
      notBefore: new Date('2049-12-31T23:59:59Z'),
      notAfter: new Date('2051-06-30T12:00:00Z'),
    }),
  };

  it.each(Object.entries(certificates))('reads %s as node:crypto does', (_name, pem) => {
    const node = new X509Certificate(pem);
    const parsed = parseSigningCertificate(pem);
    expect(parsed.notBefore.getTime()).toBe(Date.parse(node.validFrom));
    expect(parsed.notAfter.getTime()).toBe(Date.parse(node.validTo));
    expect(Buffer.from(parsed.subjectPublicKeyInfo)).toEqual(
      node.publicKey.export({ type: 'spki', format: 'der' }),
    );
    expect(parseSigningCertificate(new Uint8Array(node.raw)).notAfter).toEqual(parsed.notAfter);
    expect(parseSigningCertificate(Buffer.from(pem)).notBefore).toEqual(parsed.notBefore);
  });

  it('refuses what is not an RSA certificate', () => {
    const der = new X509Certificate(snsFixture.signingCertificatePem).raw;
    const cases = {
      'not PEM': 'hello',
      'PEM of garbage': '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
      'truncated DER': new Uint8Array(der.subarray(0, der.length - 10)),
      'trailing byte': new Uint8Array(Buffer.concat([der, Buffer.of(0)])),
    };
    for (const [name, input] of Object.entries(cases)) {
      expect(() => parseSigningCertificate(input), name).toThrow(
        expect.objectContaining({ code: 'WEBHOOK_CERT_INVALID', message: expect.stringContaining('X.509') }),
      );
    }
    // A certificate for an EC key, put together from the DER encoder (its signature is never checked).
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const name = sequence(set(sequence(oid('2.5.4.3'), utf8String('sns.amazonaws.com'))));
    const algorithm = sequence(oid('1.2.840.10045.4.3.2'));
    const tbs = sequence(
      explicit(0, integer(2n)),
      integer(1n),
      algorithm,
      name,
      sequence(time(new Date('2025-01-01T00:00:00Z')), time(new Date('2027-01-01T00:00:00Z'))),
      name,
      new Uint8Array(ec.publicKey.export({ type: 'spki', format: 'der' })),
    );
    const ecCertificate = sequence(tbs, algorithm, bitString(new Uint8Array(8)));
    expect(new X509Certificate(ecCertificate).publicKey.asymmetricKeyType).toBe('ec');
    expect(() => parseSigningCertificate(ecCertificate)).toThrow(
      expect.objectContaining({ code: 'WEBHOOK_CERT_INVALID', message: expect.stringContaining('RSA') }),
    );
  });
});
