/**
 * SNS HTTP(S) messages the simulator sends for v1 subscriptions, in the exact shape and with the
 * canonical-string signature real SNS uses, so a production verifier (pointed at the simulator's
 * certificate) accepts them unchanged.
 */
import type {
  SnsMessage,
  SnsNotification,
  SnsSignatureVersion,
  SnsSubscriptionConfirmation,
} from '../../contract/sns-message.js';
import type { SnsSigner } from './signers.js';

export interface SnsSigning {
  signer: SnsSigner;
  version: SnsSignatureVersion;
  /** Where this simulator serves its certificate; SigningCertURL is not part of the signed string. */
  certUrl: string;
}

export function confirmationMessage(
  input: { messageId: string; token: string; topicArn: string; subscribeUrl: string; timestamp: string },
  signing: SnsSigning,
): SnsSubscriptionConfirmation {
  const message = signing.signer.sign<SnsSubscriptionConfirmation>(
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
    signing.version,
  );
  return { ...message, SigningCertURL: signing.certUrl };
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
  const message = signing.signer.sign<SnsNotification>(
    {
      Type: 'Notification',
      MessageId: input.messageId,
      TopicArn: input.topicArn,
      ...(input.subject === undefined ? {} : { Subject: input.subject }),
      Message: input.message,
      Timestamp: input.timestamp,
      UnsubscribeURL: input.unsubscribeUrl,
    },
    signing.version,
  );
  return { ...message, SigningCertURL: signing.certUrl };
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
