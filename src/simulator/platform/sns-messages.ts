/**
 * SNS HTTP(S) messages the simulator sends for v1 subscriptions, in the exact shape and with the
 * canonical-string signature real SNS uses, so a production verifier (pointed at the simulator's
 * certificate) accepts them unchanged.
 */
import { snsCanonicalString } from '../../webhooks/sns-canonical.js';
import type {
  SnsMessage,
  SnsNotification,
  SnsSignatureVersion,
  SnsSubscriptionConfirmation,
} from '../../webhooks/sns-message.js';

/** Signs an SNS canonical string: RSA-SHA1 for version 1, RSA-SHA256 for version 2; base64 out. */
export type SnsSign = (canonical: string, version: SnsSignatureVersion) => string;

export interface SnsSigning {
  sign: SnsSign;
  version: SnsSignatureVersion;
  certUrl: string;
}

type Unsigned<T extends SnsMessage> = Omit<T, 'Signature' | 'SignatureVersion' | 'SigningCertURL'>;

function signed<T extends SnsMessage>(message: Unsigned<T>, signing: SnsSigning): T {
  const withMeta = {
    ...message,
    SignatureVersion: signing.version,
    SigningCertURL: signing.certUrl,
    Signature: '',
  } as unknown as T;
  withMeta.Signature = signing.sign(snsCanonicalString(withMeta), signing.version);
  return withMeta;
}

export function confirmationMessage(
  input: { messageId: string; token: string; topicArn: string; subscribeUrl: string; timestamp: string },
  signing: SnsSigning,
): SnsSubscriptionConfirmation {
  return signed<SnsSubscriptionConfirmation>(
    {
      Type: 'SubscriptionConfirmation',
      MessageId: input.messageId,
      Token: input.token,
      TopicArn: input.topicArn,
      Message:
        `You have chosen to subscribe to the topic ${input.topicArn}.\n` +
        'To confirm the subscription, visit the SubscribeURL included in this message.',
      SubscribeURL: input.subscribeUrl,
      Timestamp: input.timestamp,
    },
    signing,
  );
}

export function notificationMessage(
  input: {
    messageId: string;
    topicArn: string;
    message: string;
    timestamp: string;
    unsubscribeUrl: string;
    subject?: string;
  },
  signing: SnsSigning,
): SnsNotification {
  return signed<SnsNotification>(
    {
      Type: 'Notification',
      MessageId: input.messageId,
      TopicArn: input.topicArn,
      ...(input.subject === undefined ? {} : { Subject: input.subject }),
      Message: input.message,
      Timestamp: input.timestamp,
      UnsubscribeURL: input.unsubscribeUrl,
    },
    signing,
  );
}

/** The headers SNS sends with every HTTP(S) delivery. */
export function snsHeaders(message: SnsMessage, subscriptionArn?: string): Record<string, string> {
  return {
    'content-type': 'text/plain; charset=UTF-8',
    'x-amz-sns-message-type': message.Type,
    'x-amz-sns-message-id': message.MessageId,
    'x-amz-sns-topic-arn': message.TopicArn,
    ...(subscriptionArn === undefined ? {} : { 'x-amz-sns-subscription-arn': subscriptionArn }),
    'user-agent': 'Amazon Simple Notification Service Agent',
  };
}
