/**
 * SNS HTTP(S) messages as the platform's v1 webhooks deliver them. Part of the contract layer: the
 * receiver (src/webhooks) parses and verifies these, the simulator signs and sends them.
 */

/** SNS signature versions: 1 signs with RSA-SHA1, 2 with RSA-SHA256. */
export type SnsSignatureVersion = '1' | '2';

/** Fields every SNS HTTP(S) message carries. */
export interface SnsMessageBase {
  /** Unique per message; a redelivery repeats it. */
  MessageId: string;
  /** The topic the message was published to. */
  TopicArn: string;
  /** The payload (for a notification) or a human-readable text (for a confirmation). */
  Message: string;
  /** When the message was published, ISO 8601. */
  Timestamp: string;
  /** Which digest the signature uses. */
  SignatureVersion: SnsSignatureVersion;
  /** Base64 RSA signature over the message's canonical string. */
  Signature: string;
  /** Where the signing certificate is published. */
  SigningCertURL: string;
}

/** A published message. For the platform's v1 products `Message` holds a JSON document. */
export interface SnsNotification extends SnsMessageBase {
  /** The message type. */
  Type: 'Notification';
  /** The publisher's subject line, when it set one. */
  Subject?: string;
  /** Opening it unsubscribes the endpoint. */
  UnsubscribeURL?: string;
  /** Attributes the publisher attached, by name. */
  MessageAttributes?: Record<
    string,
    {
      /** The attribute's data type, e.g. `String`. */
      Type: string;
      /** The attribute's value, as text. */
      Value: string;
    }
  >;
}

/** Sent once per subscription (per region); fetch `SubscribeURL` to confirm it. */
export interface SnsSubscriptionConfirmation extends SnsMessageBase {
  /** The message type. */
  Type: 'SubscriptionConfirmation';
  /** Confirms the subscription when sent back. */
  Token: string;
  /** Opening it confirms the subscription. */
  SubscribeURL: string;
}

/** Sent after an unsubscribe; `SubscribeURL` re-subscribes. */
export interface SnsUnsubscribeConfirmation extends SnsMessageBase {
  /** The message type. */
  Type: 'UnsubscribeConfirmation';
  /** Re-subscribes when sent back. */
  Token: string;
  /** Opening it re-subscribes the endpoint. */
  SubscribeURL: string;
}

/** Any SNS message, discriminated by `Type`. */
export type SnsMessage = SnsNotification | SnsSubscriptionConfirmation | SnsUnsubscribeConfirmation;
/** The `Type` of an SNS message. */
export type SnsMessageType = SnsMessage['Type'];

/** A message before signing: everything but SignatureVersion, Signature and SigningCertURL. */
export type UnsignedSnsMessage<M extends SnsMessage = SnsMessage> = M extends SnsMessage
  ? Omit<M, 'SignatureVersion' | 'Signature' | 'SigningCertURL'>
  : never;
