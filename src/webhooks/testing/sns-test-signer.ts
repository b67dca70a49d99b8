import type { KeyObject } from 'node:crypto';
import type {
  SnsMessage,
  SnsNotification,
  SnsSignatureVersion,
  SnsSubscriptionConfirmation,
  SnsUnsubscribeConfirmation,
  UnsignedSnsMessage,
} from '../../contract/sns-message.js';
import { signSnsMessage } from '../../webhook-crypto/signing.js';
import type { FetchLike } from '../fetch.js';
import { signerCrypto } from './node-crypto.js';
import { createSelfSignedCertificate } from './self-signed-certificate.js';

export type { UnsignedSnsMessage } from '../../contract/sns-message.js';

/** Options of {@link createSnsTestSigner}; every one has a default. */
export interface SnsTestSignerOptions {
  /** Where verifiers will fetch the certificate. Default: an SNS-looking https URL in us-east-1. */
  certificateUrl?: string;
  /** Default TopicArn of the messages it builds. */
  topicArn?: string;
  /** Start of the certificate's validity. Default: one day ago. */
  notBefore?: Date;
  /** End of the certificate's validity. Default: one year ahead. */
  notAfter?: Date;
  /** Reuse an RSA key pair (generating a 2048-bit one takes a moment). */
  keyPair?: {
    /** Signs the messages and the certificate. */
    privateKey: KeyObject;
    /** The key the certificate holds. */
    publicKey: KeyObject;
  };
  /** SignatureVersion used when a call does not choose one. Default '2'. */
  signatureVersion?: SnsSignatureVersion;
}

/** Fields every message an {@link SnsTestSigner} builds may set; each has a default. */
export interface SnsTestMessageInput {
  /** Default: the signer's `topicArn`. */
  TopicArn?: string;
  /** Default: a random UUID. */
  MessageId?: string;
  /** Default: now, ISO 8601. */
  Timestamp?: string;
  /** Default: the signer's `signatureVersion` option ('2'). */
  signatureVersion?: SnsSignatureVersion;
}

/** What {@link SnsTestSigner.notification} builds a Notification from. */
export interface SnsTestNotificationInput extends SnsTestMessageInput {
  /** The payload, usually a JSON document as text. */
  Message: string;
  /** Left out when not given. */
  Subject?: string;
  /** Default: an unsubscribe URL on the certificate's host. */
  UnsubscribeURL?: string;
}

/** What {@link SnsTestSigner.subscriptionConfirmation} and `unsubscribeConfirmation` build from. */
export interface SnsTestConfirmationInput extends SnsTestMessageInput {
  /** Default: a ConfirmSubscription URL on the certificate's host, carrying the token. */
  SubscribeURL?: string;
  /** Default: 32 random bytes as hex. */
  Token?: string;
  /** Default: SNS's confirmation text naming the topic. */
  Message?: string;
}

/** Signs SNS-format messages with its own RSA key and self-signed certificate. */
export interface SnsTestSigner {
  /** The PEM a certificate fetcher must serve at {@link certificateUrl}. */
  readonly certificatePem: string;
  /** Where the certificate is said to be (`SigningCertURL`). */
  readonly certificateUrl: string;
  /** The default TopicArn of the messages it builds. */
  readonly topicArn: string;
  /** The RSA key pair; pass it to another signer to skip generating a new one. */
  readonly keyPair: {
    /** Signs the messages and the certificate. */
    privateKey: KeyObject;
    /** The key the certificate holds. */
    publicKey: KeyObject;
  };
  /** Signs any message: sets SignatureVersion, SigningCertURL and Signature. */
  sign<M extends SnsMessage>(message: UnsignedSnsMessage<M>, signatureVersion?: SnsSignatureVersion): M;
  /** A signed Notification. */
  notification(input: SnsTestNotificationInput): SnsNotification;
  /** A signed SubscriptionConfirmation. */
  subscriptionConfirmation(input?: SnsTestConfirmationInput): SnsSubscriptionConfirmation;
  /** A signed UnsubscribeConfirmation. */
  unsubscribeConfirmation(input?: SnsTestConfirmationInput): SnsUnsubscribeConfirmation;
  /** A delivery as SNS posts it: the JSON body and SNS's headers. */
  delivery(message: SnsMessage): {
    /** The message as JSON text. */
    body: string;
    /** `content-type` and the `x-amz-sns-*` headers. */
    headers: Record<string, string>;
  };
  /** A fetch that serves the certificate at {@link certificateUrl} and answers 404 to anything else. */
  readonly fetch: FetchLike;
}

/**
 * Creates an SNS signer for tests and for the simulator's v1 deliveries. Point a verifier at it with
 * `{ fetch: signer.fetch }` (default certificate URL), or serve `certificatePem` at a URL of your own
 * and pass that URL as `certificateUrl` (with a matching `urlPolicy` when it is not an SNS host).
 */
export function createSnsTestSigner(options: SnsTestSignerOptions = {}): SnsTestSigner {
  const { generateKeyPairSync, randomBytes, randomUUID } = signerCrypto('createSnsTestSigner');
  const keyPair = options.keyPair ?? generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificateUrl =
    options.certificateUrl ??
    'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-match-venue-test.pem';
  const topicArn = options.topicArn ?? 'arn:aws:sns:us-east-1:000000000000:match-venue-test';
  const defaultVersion = options.signatureVersion ?? '2';
  const certificatePem = createSelfSignedCertificate({
    ...keyPair,
    ...(options.notBefore ? { notBefore: options.notBefore } : {}),
    ...(options.notAfter ? { notAfter: options.notAfter } : {}),
  });
  const origin = new URL(certificateUrl).origin;

  function signMessage<M extends SnsMessage>(unsigned: UnsignedSnsMessage<M>, version = defaultVersion): M {
    return signSnsMessage(unsigned, { version, certificateUrl, privateKey: keyPair.privateKey });
  }

  function confirmation<T extends 'SubscriptionConfirmation' | 'UnsubscribeConfirmation'>(
    type: T,
    input: SnsTestConfirmationInput,
  ) {
    const arn = input.TopicArn ?? topicArn;
    const token = input.Token ?? randomBytes(32).toString('hex');
    return {
      Type: type,
      MessageId: input.MessageId ?? randomUUID(),
      Token: token,
      TopicArn: arn,
      Message:
        input.Message ??
        `You have chosen to subscribe to the topic ${arn}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
      SubscribeURL:
        input.SubscribeURL ??
        `${origin}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(arn)}&Token=${token}`,
      Timestamp: input.Timestamp ?? new Date().toISOString(),
    };
  }

  return {
    certificatePem,
    certificateUrl,
    topicArn,
    keyPair,
    sign: signMessage,
    notification(input) {
      const arn = input.TopicArn ?? topicArn;
      const unsigned: UnsignedSnsMessage<SnsNotification> = {
        Type: 'Notification',
        MessageId: input.MessageId ?? randomUUID(),
        TopicArn: arn,
        ...(input.Subject !== undefined ? { Subject: input.Subject } : {}),
        Message: input.Message,
        Timestamp: input.Timestamp ?? new Date().toISOString(),
        UnsubscribeURL:
          input.UnsubscribeURL ?? `${origin}/?Action=Unsubscribe&SubscriptionArn=${encodeURIComponent(arn)}`,
      };
      return signMessage<SnsNotification>(unsigned, input.signatureVersion);
    },
    subscriptionConfirmation(input = {}) {
      return signMessage<SnsSubscriptionConfirmation>(
        confirmation('SubscriptionConfirmation', input),
        input.signatureVersion,
      );
    },
    unsubscribeConfirmation(input = {}) {
      return signMessage<SnsUnsubscribeConfirmation>(
        confirmation('UnsubscribeConfirmation', input),
        input.signatureVersion,
      );
    },
    delivery(message) {
      return {
        body: JSON.stringify(message),
        headers: {
          'content-type': 'text/plain; charset=UTF-8',
          'x-amz-sns-message-type': message.Type,
          'x-amz-sns-message-id': message.MessageId,
          'x-amz-sns-topic-arn': message.TopicArn,
        },
      };
    },
    fetch: async (input) =>
      input === new URL(certificateUrl).href
        ? new Response(certificatePem, {
            status: 200,
            headers: { 'content-type': 'application/x-x509-ca-cert' },
          })
        : new Response('Not Found', { status: 404 }),
  };
}
