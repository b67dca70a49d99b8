/**
 * SNS HTTP(S) messages as the platform's v1 webhooks deliver them. Part of the contract layer: the
 * receiver (src/webhooks) parses and verifies these, the simulator signs and sends them.
 */

/** SNS signature versions: 1 signs with RSA-SHA1, 2 with RSA-SHA256. */
export type SnsSignatureVersion = '1' | '2';

/** Fields every SNS HTTP(S) message carries. */
export interface SnsMessageBase {
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: SnsSignatureVersion;
  Signature: string;
  SigningCertURL: string;
}

/** A published message. For the platform's v1 products `Message` holds a JSON document. */
export interface SnsNotification extends SnsMessageBase {
  Type: 'Notification';
  Subject?: string;
  UnsubscribeURL?: string;
  MessageAttributes?: Record<string, { Type: string; Value: string }>;
}

/** Sent once per subscription (per region); fetch `SubscribeURL` to confirm it. */
export interface SnsSubscriptionConfirmation extends SnsMessageBase {
  Type: 'SubscriptionConfirmation';
  Token: string;
  SubscribeURL: string;
}

/** Sent after an unsubscribe; `SubscribeURL` re-subscribes. */
export interface SnsUnsubscribeConfirmation extends SnsMessageBase {
  Type: 'UnsubscribeConfirmation';
  Token: string;
  SubscribeURL: string;
}

export type SnsMessage = SnsNotification | SnsSubscriptionConfirmation | SnsUnsubscribeConfirmation;
export type SnsMessageType = SnsMessage['Type'];

/** A message before signing: everything but SignatureVersion, Signature and SigningCertURL. */
export type UnsignedSnsMessage<M extends SnsMessage = SnsMessage> = M extends SnsMessage
  ? Omit<M, 'SignatureVersion' | 'Signature' | 'SigningCertURL'>
  : never;
