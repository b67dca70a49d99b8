import { WebhookError } from './errors.js';
import { rawBodyText } from './raw-body.js';

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

const BASE_FIELDS = [
  'MessageId',
  'TopicArn',
  'Message',
  'Timestamp',
  'SignatureVersion',
  'Signature',
  'SigningCertURL',
] as const;
const CONFIRMATION_FIELDS = ['Token', 'SubscribeURL'] as const;

function invalid(message: string, cause?: unknown): WebhookError {
  return new WebhookError('WEBHOOK_BODY_INVALID', message, { cause });
}

function requireString(record: Record<string, unknown>, field: string, type: string): void {
  if (typeof record[field] !== 'string') {
    throw invalid(`SNS ${type} message lacks the string field "${field}".`);
  }
}

/**
 * Parses a raw SNS HTTP(S) body into a typed message, checking that every field the message type
 * needs is present. It does not verify the signature: use {@link createSnsVerifier} for that.
 * `Subject: null` (how some SNS clients render an absent subject) is treated as absent.
 */
export function parseSnsMessage(body: unknown): SnsMessage {
  const text = rawBodyText(body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid('SNS message body is not valid JSON.', error);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid('SNS message body is not a JSON object.');
  }
  const record = parsed as Record<string, unknown>;
  const type = record.Type;
  if (type !== 'Notification' && type !== 'SubscriptionConfirmation' && type !== 'UnsubscribeConfirmation') {
    throw invalid(`Unknown SNS message Type ${JSON.stringify(type)}.`);
  }
  for (const field of BASE_FIELDS) requireString(record, field, type);
  if (type === 'Notification') {
    if (record.Subject === null) delete record.Subject;
    else if (record.Subject !== undefined) requireString(record, 'Subject', type);
  } else {
    for (const field of CONFIRMATION_FIELDS) requireString(record, field, type);
  }
  if (record.SignatureVersion !== '1' && record.SignatureVersion !== '2') {
    throw new WebhookError(
      'WEBHOOK_SIGNATURE_VERSION_UNSUPPORTED',
      `SNS SignatureVersion ${JSON.stringify(record.SignatureVersion)} is not supported (expected "1" or "2").`,
    );
  }
  return record as unknown as SnsMessage;
}
