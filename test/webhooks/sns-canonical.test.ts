import { sign } from 'node:crypto';
import { createSnsVerifier, type SnsMessage, type SnsSignatureVersion } from 'match-venue/webhooks';
import { createSnsTestSigner } from 'match-venue/webhooks/testing';
import { snsCanonicalString } from '../../src/webhook-crypto/sns-canonical.js';
import { describe, expect, it } from 'vitest';
import { codeOf, snsFixture } from './fixtures.js';

// The canonical strings are written out by hand here (AWS's documented field lists and order), so
// neither the signer nor the verifier is checked only against the function they share.
const signer = createSnsTestSigner();
const CERT_URL = signer.certificateUrl;

const confirmation = {
  Type: 'SubscriptionConfirmation',
  MessageId: '165545c9-2a5c-472c-8df2-7ff2be2b3b1b',
  Token: '2336412f37fb687f5d51e6e2425f004aed',
  TopicArn: 'arn:aws:sns:us-west-2:123456789012:MyTopic',
  Message: 'You have chosen to subscribe to the topic arn:aws:sns:us-west-2:123456789012:MyTopic.',
  SubscribeURL:
    'https://sns.us-west-2.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-west-2:123456789012:MyTopic&Token=2336412f37fb687f5d51e6e2425f004aed',
  Timestamp: '2012-04-26T20:45:04.751Z',
} as const;

const CONFIRMATION_CANONICAL =
  'Message\nYou have chosen to subscribe to the topic arn:aws:sns:us-west-2:123456789012:MyTopic.\n' +
  'MessageId\n165545c9-2a5c-472c-8df2-7ff2be2b3b1b\n' +
  `SubscribeURL\n${confirmation.SubscribeURL}\n` +
  'Timestamp\n2012-04-26T20:45:04.751Z\n' +
  'Token\n2336412f37fb687f5d51e6e2425f004aed\n' +
  'TopicArn\narn:aws:sns:us-west-2:123456789012:MyTopic\n' +
  'Type\nSubscriptionConfirmation\n';

const notification = {
  Type: 'Notification',
  MessageId: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324',
  TopicArn: 'arn:aws:sns:us-west-2:123456789012:MyTopic',
  Subject: 'My First Message',
  Message: 'Hello world!',
  Timestamp: '2012-05-02T00:54:06.655Z',
  UnsubscribeURL: 'https://sns.us-west-2.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=x',
} as const;

const NOTIFICATION_CANONICAL =
  'Message\nHello world!\n' +
  'MessageId\n22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324\n' +
  'Subject\nMy First Message\n' +
  'Timestamp\n2012-05-02T00:54:06.655Z\n' +
  'TopicArn\narn:aws:sns:us-west-2:123456789012:MyTopic\n' +
  'Type\nNotification\n';

const DIGEST = { '1': 'sha1', '2': 'sha256' } as const;

/** Signs `canonical` directly with the signer's key and attaches the result to `fields`. */
function signedByHand(fields: object, canonical: string, version: SnsSignatureVersion): string {
  const signature = sign(DIGEST[version], Buffer.from(canonical, 'utf8'), signer.keyPair.privateKey);
  return JSON.stringify({
    ...fields,
    SignatureVersion: version,
    Signature: signature.toString('base64'),
    SigningCertURL: CERT_URL,
  });
}

const asMessage = (fields: object) =>
  ({ ...fields, SignatureVersion: '2', Signature: '', SigningCertURL: CERT_URL }) as unknown as SnsMessage;

describe('SNS canonical strings (the signed field list per message type)', () => {
  it('SubscriptionConfirmation: Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type', () => {
    expect(snsCanonicalString(asMessage(confirmation))).toBe(CONFIRMATION_CANONICAL);
  });

  it('UnsubscribeConfirmation uses the confirmation list', () => {
    const unsubscribe = { ...confirmation, Type: 'UnsubscribeConfirmation' };
    expect(snsCanonicalString(asMessage(unsubscribe))).toBe(
      CONFIRMATION_CANONICAL.replace('Type\nSubscriptionConfirmation\n', 'Type\nUnsubscribeConfirmation\n'),
    );
  });

  it('Notification: Message, MessageId, Subject, Timestamp, TopicArn, Type; UnsubscribeURL is not signed', () => {
    expect(snsCanonicalString(asMessage(notification))).toBe(NOTIFICATION_CANONICAL);
  });

  it('Notification without Subject leaves the Subject pair out entirely', () => {
    const { Subject: _s, ...noSubject } = notification;
    expect(snsCanonicalString(asMessage(noSubject))).toBe(
      NOTIFICATION_CANONICAL.replace('Subject\nMy First Message\n', ''),
    );
  });

  it('fields of the other type do not leak in (Token/SubscribeURL on a Notification, Subject on a confirmation)', () => {
    expect(snsCanonicalString(asMessage({ ...notification, Token: 't', SubscribeURL: 'u' }))).toBe(
      NOTIFICATION_CANONICAL,
    );
    expect(snsCanonicalString(asMessage({ ...confirmation, Subject: 's' }))).toBe(CONFIRMATION_CANONICAL);
  });

  it('matches the genuine fixture: every genuine message verifies against the hand-built list', () => {
    for (const message of snsFixture.messages) {
      const expected = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
        .filter((key) => (message as unknown as Record<string, unknown>)[key] !== undefined)
        .map((key) => `${key}\n${(message as unknown as Record<string, string>)[key]}\n`)
        .join('');
      expect(snsCanonicalString(message)).toBe(expected);
    }
  });
});

describe.each(['1', '2'] as const)(
  'verifier against hand-signed messages, SignatureVersion %s',
  (version) => {
    const verifier = () => createSnsVerifier({ fetch: signer.fetch, ignoreCertificateExpiry: true });

    it('a SubscriptionConfirmation signed over the documented string verifies', async () => {
      const body = signedByHand(confirmation, CONFIRMATION_CANONICAL, version);
      await expect(verifier().verify(body)).resolves.toMatchObject({ Type: 'SubscriptionConfirmation' });
    });

    it('a Notification signed over the documented string verifies', async () => {
      const body = signedByHand(notification, NOTIFICATION_CANONICAL, version);
      await expect(verifier().verify(body)).resolves.toMatchObject({ Subject: 'My First Message' });
    });

    it('a confirmation signed without MessageId in the string fails', async () => {
      const missing = CONFIRMATION_CANONICAL.replace('MessageId\n165545c9-2a5c-472c-8df2-7ff2be2b3b1b\n', '');
      const body = signedByHand(confirmation, missing, version);
      expect(await codeOf(verifier().verify(body))).toBe('WEBHOOK_SIGNATURE_INVALID');
    });

    it('a confirmation signed with its fields out of order fails', async () => {
      const reordered = CONFIRMATION_CANONICAL.replace(
        `SubscribeURL\n${confirmation.SubscribeURL}\nTimestamp\n2012-04-26T20:45:04.751Z\n`,
        `Timestamp\n2012-04-26T20:45:04.751Z\nSubscribeURL\n${confirmation.SubscribeURL}\n`,
      );
      expect(reordered).not.toBe(CONFIRMATION_CANONICAL);
      const body = signedByHand(confirmation, reordered, version);
      expect(await codeOf(verifier().verify(body))).toBe('WEBHOOK_SIGNATURE_INVALID');
    });
  },
);
