import type { SnsMessage } from '../contract/sns-message.js';

const NOTIFICATION_KEYS = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const;
const CONFIRMATION_KEYS = [
  'Message',
  'MessageId',
  'SubscribeURL',
  'Timestamp',
  'Token',
  'TopicArn',
  'Type',
] as const;

/**
 * The string SNS signs: for each field of the message type's list, in that (alphabetical) order and
 * only when present, `key\nvalue\n`. Notifications: Message, MessageId, Subject, Timestamp,
 * TopicArn, Type. Confirmations: Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type.
 */
export function snsCanonicalString(message: SnsMessage): string {
  const keys = message.Type === 'Notification' ? NOTIFICATION_KEYS : CONFIRMATION_KEYS;
  const fields = message as unknown as Record<string, unknown>;
  let out = '';
  for (const key of keys) {
    const value = fields[key];
    if (typeof value === 'string') out += `${key}\n${value}\n`;
  }
  return out;
}
