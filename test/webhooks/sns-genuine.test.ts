import { createSnsVerifier, type SnsNotification, WebhookError } from 'match-venue/webhooks';
import { describe, expect, it } from 'vitest';
import { certificateServer, genuineCertUrl, rawBody, snsFixture } from './fixtures.js';

const messages = snsFixture.messages;

function verifier(options: { now?: () => number; ignoreCertificateExpiry?: boolean } = {}) {
  const fetch = certificateServer(genuineCertUrl, snsFixture.signingCertificatePem);
  return { fetch, sns: createSnsVerifier({ fetch, ignoreCertificateExpiry: true, ...options }) };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WebhookError) return error.code;
    throw error;
  }
  throw new Error('expected a WebhookError');
}

describe('genuine SNS notifications (fixture)', () => {
  it('keeps its source line', () => {
    expect(snsFixture.source).toContain('aws/aws-php-sns-message-validator');
    expect(snsFixture.source).toContain('Apache-2.0');
  });

  it('covers both signature versions, with and without Subject', () => {
    const kinds = messages.map((m) => `${m.SignatureVersion}:${m.Subject === undefined ? 'no' : 'with'}`);
    expect(kinds.sort()).toEqual(['1:no', '1:with', '2:no', '2:with']);
  });

  it.each(messages.map((m) => [m.SignatureVersion, m.Subject ?? '(none)', m] as const))(
    'verifies SignatureVersion %s, Subject %s',
    async (_version, _subject, message) => {
      const { sns } = verifier();
      const verified = await sns.verify(rawBody(message));
      expect(verified).toEqual(message);
      expect(verified.Type).toBe('Notification');
    },
  );

  it('accepts the raw body as a Buffer and as a Uint8Array', async () => {
    const { sns } = verifier();
    const text = rawBody(messages[0]!);
    await expect(sns.verify(Buffer.from(text))).resolves.toMatchObject({ MessageId: messages[0]!.MessageId });
    await expect(sns.verify(new TextEncoder().encode(text))).resolves.toMatchObject({ Type: 'Notification' });
  });

  it('fetches the certificate once for all four messages (cached per URL, in-flight shared)', async () => {
    const { sns, fetch } = verifier();
    await Promise.all(messages.map((m) => sns.verify(rawBody(m))));
    await sns.verify(rawBody(messages[1]!));
    expect(fetch.calls).toEqual([genuineCertUrl]);
  });

  it('rejects the expired certificate with a real clock', async () => {
    const { sns } = verifier({
      ignoreCertificateExpiry: false,
      now: () => Date.parse('2026-01-01T00:00:00Z'),
    });
    expect(await codeOf(sns.verify(rawBody(messages[0]!)))).toBe('WEBHOOK_CERT_EXPIRED');
  });

  it('accepts the certificate when now lies inside its validity period', async () => {
    const { sns } = verifier({
      ignoreCertificateExpiry: false,
      now: () => Date.parse('2022-07-28T22:00:00Z'),
    });
    await expect(sns.verify(rawBody(messages[0]!))).resolves.toMatchObject({ Type: 'Notification' });
  });

  it('rejects a clock before the certificate was issued', async () => {
    const { sns } = verifier({
      ignoreCertificateExpiry: false,
      now: () => Date.parse('2021-01-01T00:00:00Z'),
    });
    expect(await codeOf(sns.verify(rawBody(messages[0]!)))).toBe('WEBHOOK_CERT_NOT_YET_VALID');
  });

  it('refuses an already-parsed object with a message saying to pass the raw body', async () => {
    const { sns } = verifier();
    const error = await sns.verify(messages[0]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookError);
    expect((error as WebhookError).code).toBe('WEBHOOK_BODY_NOT_RAW');
    expect((error as WebhookError).message).toMatch(/raw request body/);
    expect((error as WebhookError).message).toMatch(/express\.raw/);
  });
});

describe('tampering with a genuine notification', () => {
  const tamper = (index: number, change: (m: SnsNotification) => SnsNotification) =>
    rawBody(change({ ...messages[index]! }));
  const flipLastChar = (value: string) =>
    value.slice(0, -1) + String.fromCharCode(value.charCodeAt(value.length - 1) ^ 1);

  it.each([0, 1, 2, 3])('one changed byte in Message fails (message %i)', async (index) => {
    const { sns } = verifier();
    const body = tamper(index, (m) => ({ ...m, Message: flipLastChar(m.Message) }));
    expect(await codeOf(sns.verify(body))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it.each([0, 1, 2, 3])('one changed byte in Timestamp fails (message %i)', async (index) => {
    const { sns } = verifier();
    const body = tamper(index, (m) => ({ ...m, Timestamp: m.Timestamp.replace('2022', '2023') }));
    expect(await codeOf(sns.verify(body))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it.each([0, 1, 2, 3])('one changed byte in TopicArn fails (message %i)', async (index) => {
    const { sns } = verifier();
    const body = tamper(index, (m) => ({ ...m, TopicArn: flipLastChar(m.TopicArn) }));
    expect(await codeOf(sns.verify(body))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('a removed Subject fails', async () => {
    const { sns } = verifier();
    const { Subject: _dropped, ...withoutSubject } = messages[2]!;
    expect(await codeOf(sns.verify(rawBody(withoutSubject)))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it.each([0, 1, 2, 3])('a swapped SignatureVersion fails (message %i)', async (index) => {
    const { sns } = verifier();
    const body = tamper(index, (m) => ({ ...m, SignatureVersion: m.SignatureVersion === '1' ? '2' : '1' }));
    expect(await codeOf(sns.verify(body))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('an unknown SignatureVersion is refused', async () => {
    const { sns } = verifier();
    const body = rawBody({ ...messages[0]!, SignatureVersion: '3' });
    expect(await codeOf(sns.verify(body))).toBe('WEBHOOK_SIGNATURE_VERSION_UNSUPPORTED');
  });

  it('a signature from another message fails', async () => {
    const { sns } = verifier();
    const body = rawBody({ ...messages[0]!, Signature: messages[2]!.Signature });
    expect(await codeOf(sns.verify(body))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it.each([
    ['another host', 'https://evil.example/SimpleNotificationService-x.pem'],
    ['http', genuineCertUrl.replace('https:', 'http:')],
    ['not ending in .pem', genuineCertUrl.replace('.pem', '.txt')],
    ['.pem only in the query', 'https://sns.us-east-2.amazonaws.com/cert?x.pem'],
    ['userinfo trick', 'https://sns.us-east-1.amazonaws.com@evil.example/x.pem'],
    ['suffix-host trick', 'https://sns.us-east-1.amazonaws.com.evil.example/x.pem'],
    ['a port', 'https://sns.us-east-2.amazonaws.com:8443/SimpleNotificationService-x.pem'],
    ['a userinfo with password', 'https://user:pass@sns.us-east-2.amazonaws.com/x.pem'],
    ['uppercase-scheme downgrade', 'HTTP://sns.us-east-2.amazonaws.com/x.pem'],
    ['mixed-case scheme on another host', 'HtTpS://evil.example/sns.us-east-1.amazonaws.com/x.pem'],
    ['backslash host trick', 'https://evil.example\\@sns.us-east-1.amazonaws.com/x.pem'],
    ['non-SNS amazonaws host', 'https://s3.us-east-1.amazonaws.com/x.pem'],
    ['trailing-dot host', 'https://sns.us-east-1.amazonaws.com./x.pem'],
    ['not a URL', 'sns.us-east-2.amazonaws.com/x.pem'],
  ])('a certificate URL on %s is rejected before any fetch', async (_label, url) => {
    const { sns, fetch } = verifier();
    const body = rawBody({ ...messages[0]!, SigningCertURL: url });
    expect(await codeOf(sns.verify(body))).toBe('WEBHOOK_CERT_URL_REJECTED');
    expect(fetch.calls).toEqual([]);
  });

  it('fetches the WHATWG-normalised URL (uppercase scheme and host of the genuine URL are the same URL)', async () => {
    const { sns, fetch } = verifier();
    const shouted = genuineCertUrl.replace('https://sns.us-east-2', 'HTTPS://SNS.US-EAST-2');
    await expect(sns.verify(rawBody({ ...messages[0]!, SigningCertURL: shouted }))).resolves.toEqual({
      ...messages[0],
      SigningCertURL: shouted,
    });
    expect(fetch.calls).toEqual([genuineCertUrl]);
  });

  it('a certificate URL the fetcher cannot serve is a fetch failure', async () => {
    const { sns } = verifier();
    const body = rawBody({
      ...messages[0]!,
      SigningCertURL: 'https://sns.eu-west-1.amazonaws.com/other.pem',
    });
    expect(await codeOf(sns.verify(body))).toBe('WEBHOOK_CERT_FETCH_FAILED');
  });
});

describe('TopicArn allow pattern', () => {
  it('accepts a matching topic and refuses others', async () => {
    const fetch = certificateServer(genuineCertUrl, snsFixture.signingCertificatePem);
    const sns = createSnsVerifier({
      fetch,
      ignoreCertificateExpiry: true,
      topicArn: /^arn:aws:sns:us-east-2:295079676684:publish-and-verify-892f85fe-/,
    });
    await expect(sns.verify(rawBody(messages[0]!))).resolves.toEqual(messages[0]);
    expect(await codeOf(sns.verify(rawBody(messages[1]!)))).toBe('WEBHOOK_TOPIC_REJECTED');
  });

  it('accepts an exact ARN string or a predicate', async () => {
    const fetch = certificateServer(genuineCertUrl, snsFixture.signingCertificatePem);
    const exact = createSnsVerifier({
      fetch,
      ignoreCertificateExpiry: true,
      topicArn: messages[1]!.TopicArn,
    });
    await expect(exact.verify(rawBody(messages[1]!))).resolves.toEqual(messages[1]);
    expect(await codeOf(exact.verify(rawBody(messages[0]!)))).toBe('WEBHOOK_TOPIC_REJECTED');
    const predicate = createSnsVerifier({ fetch, ignoreCertificateExpiry: true, topicArn: () => false });
    expect(await codeOf(predicate.verify(rawBody(messages[0]!)))).toBe('WEBHOOK_TOPIC_REJECTED');
  });
});
