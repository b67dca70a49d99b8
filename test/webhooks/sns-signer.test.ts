import { X509Certificate } from 'node:crypto';
import {
  confirmSnsSubscription,
  createSnsVerifier,
  type SnsSignatureVersion,
  type WebhookError,
} from 'match-venue/webhooks';
import { createSnsTestSigner, loopbackUrlPolicy } from 'match-venue/webhooks/testing';
import { describe, expect, it } from 'vitest';
import { codeOf } from './fixtures.js';

// One RSA key for the file: generating 2048-bit keys is the slow part.
const signer = createSnsTestSigner();
const otherSigner = createSnsTestSigner({ signatureVersion: '1' });
const keyPair = otherSigner.keyPair;

const verifier = () => createSnsVerifier({ fetch: signer.fetch });

describe('createSnsTestSigner', () => {
  it('makes a self-signed X.509 certificate for its key, currently valid', () => {
    const cert = new X509Certificate(signer.certificatePem);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkIssued(cert)).toBe(true);
    expect(cert.subject).toBe('CN=sns.amazonaws.com');
    expect(Date.parse(cert.validFrom)).toBeLessThan(Date.now());
    expect(Date.parse(cert.validTo)).toBeGreaterThan(Date.now());
  });

  it('uses an SNS-host certificate URL by default and serves the certificate only there', async () => {
    expect(signer.certificateUrl).toMatch(/^https:\/\/sns\.us-east-1\.amazonaws\.com\/.+\.pem$/);
    expect(await (await signer.fetch(signer.certificateUrl)).text()).toBe(signer.certificatePem);
    expect((await signer.fetch('https://sns.us-east-1.amazonaws.com/other.pem')).status).toBe(404);
  });

  const versions: SnsSignatureVersion[] = ['1', '2'];
  describe.each(versions)('SignatureVersion %s', (version) => {
    it('a Notification with Subject verifies', async () => {
      const message = signer.notification({ Message: '{"a":1}', Subject: 'hi', signatureVersion: version });
      expect(message.SignatureVersion).toBe(version);
      await expect(verifier().verify(JSON.stringify(message))).resolves.toEqual(message);
    });

    it('a Notification without Subject verifies', async () => {
      const message = signer.notification({ Message: 'plain', signatureVersion: version });
      expect('Subject' in message).toBe(false);
      await expect(verifier().verify(JSON.stringify(message))).resolves.toEqual(message);
    });

    it('a SubscriptionConfirmation verifies', async () => {
      const message = signer.subscriptionConfirmation({ signatureVersion: version });
      const verified = await verifier().verify(JSON.stringify(message));
      expect(verified.Type).toBe('SubscriptionConfirmation');
      expect(verified).toEqual(message);
    });

    it('an UnsubscribeConfirmation verifies', async () => {
      const message = signer.unsubscribeConfirmation({ signatureVersion: version });
      await expect(verifier().verify(JSON.stringify(message))).resolves.toMatchObject({
        Type: 'UnsubscribeConfirmation',
      });
    });

    it('a changed Token or SubscribeURL of a confirmation fails', async () => {
      const message = signer.subscriptionConfirmation({ signatureVersion: version });
      const token = JSON.stringify({ ...message, Token: `${message.Token}0` });
      expect(await codeOf(verifier().verify(token))).toBe('WEBHOOK_SIGNATURE_INVALID');
      const url = JSON.stringify({ ...message, SubscribeURL: `${message.SubscribeURL}&x=1` });
      expect(await codeOf(verifier().verify(url))).toBe('WEBHOOK_SIGNATURE_INVALID');
    });
  });

  it('a message signed by another key fails', async () => {
    const message = otherSigner.notification({ Message: 'forged' });
    expect(await codeOf(verifier().verify(JSON.stringify(message)))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('an expired test certificate is rejected unless expiry is ignored', async () => {
    const expired = createSnsTestSigner({
      keyPair,
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2021-01-01T00:00:00Z'),
    });
    const body = JSON.stringify(expired.notification({ Message: 'old' }));
    const strict = createSnsVerifier({ fetch: expired.fetch, now: () => Date.parse('2024-01-01T00:00:00Z') });
    expect(await codeOf(strict.verify(body))).toBe('WEBHOOK_CERT_EXPIRED');
    const lax = createSnsVerifier({ fetch: expired.fetch, ignoreCertificateExpiry: true });
    await expect(lax.verify(body)).resolves.toMatchObject({ Message: 'old' });
  });

  it('delivery() gives the JSON body and the SNS headers', () => {
    const message = signer.notification({ Message: 'x' });
    const { body, headers } = signer.delivery(message);
    expect(JSON.parse(body)).toEqual(message);
    expect(headers['x-amz-sns-message-type']).toBe('Notification');
    expect(headers['x-amz-sns-message-id']).toBe(message.MessageId);
    expect(headers['x-amz-sns-topic-arn']).toBe(message.TopicArn);
  });
});

describe('SubscribeURL host rule', () => {
  it.each([
    ['another host', 'https://evil.example/?Action=ConfirmSubscription'],
    ['http', 'http://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription'],
    ['userinfo trick', 'https://sns.us-east-1.amazonaws.com@evil.example/?Action=ConfirmSubscription'],
    ['suffix-host trick', 'https://sns.us-east-1.amazonaws.com.evil.example/?Action=ConfirmSubscription'],
    ['a port', 'https://sns.us-east-1.amazonaws.com:444/?Action=ConfirmSubscription'],
  ])('a validly signed confirmation with a SubscribeURL on %s is rejected', async (_label, SubscribeURL) => {
    const message = signer.subscriptionConfirmation({ SubscribeURL });
    expect(await codeOf(verifier().verify(JSON.stringify(message)))).toBe('WEBHOOK_SUBSCRIBE_URL_REJECTED');
    const calls: string[] = [];
    const fetch = async (url: string) => {
      calls.push(url);
      return new Response('ok');
    };
    expect(await codeOf(confirmSnsSubscription(message, { fetch }))).toBe('WEBHOOK_SUBSCRIBE_URL_REJECTED');
    expect(calls).toEqual([]);
  });

  it('confirmSnsSubscription GETs the SubscribeURL', async () => {
    const message = signer.subscriptionConfirmation();
    const seen: { url: string; method: string | undefined }[] = [];
    await confirmSnsSubscription(message, {
      fetch: async (url, init) => {
        seen.push({ url, method: init?.method });
        return new Response('<ConfirmSubscriptionResponse/>');
      },
    });
    expect(seen).toEqual([{ url: message.SubscribeURL, method: 'GET' }]);
  });

  it('a non-2xx answer to the confirmation is WEBHOOK_CONFIRM_FAILED, without the token in the message', async () => {
    const message = signer.subscriptionConfirmation();
    const error = await confirmSnsSubscription(message, {
      fetch: async () => new Response('denied', { status: 403 }),
    }).catch((e: unknown) => e);
    expect((error as WebhookError).code).toBe('WEBHOOK_CONFIRM_FAILED');
    expect((error as WebhookError).message).not.toContain(message.Token);
  });

  it('loopbackUrlPolicy (simulator testing) admits a local certificate and SubscribeURL', async () => {
    const local = createSnsTestSigner({ keyPair, certificateUrl: 'http://127.0.0.1:4010/_sim/sns/cert.pem' });
    const message = local.subscriptionConfirmation({
      SubscribeURL: 'http://127.0.0.1:4010/_sim/sns/confirm?t=1',
    });
    const strict = createSnsVerifier({ fetch: local.fetch });
    expect(await codeOf(strict.verify(JSON.stringify(message)))).toBe('WEBHOOK_SUBSCRIBE_URL_REJECTED');
    const relaxed = createSnsVerifier({ fetch: local.fetch, urlPolicy: loopbackUrlPolicy });
    await expect(relaxed.verify(JSON.stringify(message))).resolves.toMatchObject({
      Type: 'SubscriptionConfirmation',
    });
  });

  it('trustedCertificate pins the key without fetching', async () => {
    const local = createSnsTestSigner({ keyPair, certificateUrl: 'http://127.0.0.1:1/never-fetched.pem' });
    const fetch = async () => {
      throw new Error('must not fetch');
    };
    const pinned = createSnsVerifier({ fetch, trustedCertificate: local.certificatePem });
    const sent = local.notification({ Message: 'm' });
    await expect(pinned.verify(JSON.stringify(sent))).resolves.toEqual(sent);
    expect(await codeOf(pinned.verify(JSON.stringify(signer.notification({ Message: 'm' }))))).toBe(
      'WEBHOOK_SIGNATURE_INVALID',
    );
  });
});

describe('message shape', () => {
  it.each([
    ['not JSON', 'Type=Notification'],
    ['an array', '[]'],
    ['an unknown Type', JSON.stringify({ Type: 'Other' })],
    [
      'a Notification without Signature',
      JSON.stringify({ ...signer.notification({ Message: 'm' }), Signature: 1 }),
    ],
  ])('%s is WEBHOOK_BODY_INVALID', async (_label, body) => {
    expect(await codeOf(verifier().verify(body))).toBe('WEBHOOK_BODY_INVALID');
  });

  it('a confirmation without Token is WEBHOOK_BODY_INVALID', async () => {
    const { Token: _t, ...noToken } = signer.subscriptionConfirmation();
    expect(await codeOf(verifier().verify(JSON.stringify(noToken)))).toBe('WEBHOOK_BODY_INVALID');
  });
});

describe('certificate cache', () => {
  it('shares one fetch between concurrent verifications and retries after a failure', async () => {
    let calls = 0;
    let fail = true;
    const fetch = async (url: string) => {
      calls += 1;
      await new Promise((resolve) => setImmediate(resolve));
      if (fail) return new Response('unavailable', { status: 503 });
      return signer.fetch(url);
    };
    const sns = createSnsVerifier({ fetch });
    const body = JSON.stringify(signer.notification({ Message: 'm' }));
    const first = await Promise.all([sns.verify(body), sns.verify(body)].map((p) => codeOf(p)));
    expect(first).toEqual(['WEBHOOK_CERT_FETCH_FAILED', 'WEBHOOK_CERT_FETCH_FAILED']);
    expect(calls).toBe(1);
    fail = false;
    await Promise.all([sns.verify(body), sns.verify(body), sns.verify(body)]);
    await sns.verify(body);
    expect(calls).toBe(2);
  });

  it('an unparseable certificate is WEBHOOK_CERT_INVALID', async () => {
    const sns = createSnsVerifier({ fetch: async () => new Response('not a certificate') });
    const body = JSON.stringify(signer.notification({ Message: 'm' }));
    expect(await codeOf(sns.verify(body))).toBe('WEBHOOK_CERT_INVALID');
  });
});
