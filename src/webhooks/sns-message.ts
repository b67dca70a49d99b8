import type { SnsMessage } from '../contract/sns-message.js';
import { WebhookError } from './errors.js';
import { rawBodyText } from './raw-body.js';

export type {
  SnsMessage,
  SnsMessageBase,
  SnsMessageType,
  SnsNotification,
  SnsSignatureVersion,
  SnsSubscriptionConfirmation,
  SnsUnsubscribeConfirmation,
} from '../contract/sns-message.js';

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
 * Fields that must be a single line. The signed string is `key\nvalue\n` pairs, so a line break in
 * a signed value can impersonate the next key (a MessageId of `<id>\nSubject\n<s>` signs exactly like
 * a genuine Subject). Message is the one signed field allowed to span lines: it is signed first and
 * every other value is one line, so the pairs after it can only be read one way (README, "Why
 * Message may span lines"). Unsigned fields are held to the same rule: AWS never sends a break in
 * them, and a URL parser that silently drops tabs and line breaks would check a different string
 * than the one in the body.
 */
const SINGLE_LINE_FIELDS = [
  'Type',
  'MessageId',
  'Subject',
  'Timestamp',
  'TopicArn',
  'Token',
  'SubscribeURL',
  'SignatureVersion',
  'Signature',
  'SigningCertURL',
  'UnsubscribeURL',
] as const;
// SNS MessageIds are UUIDs (any version; the fixtures carry version 5).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// ISO 8601 in UTC as SNS writes it (2022-07-28T21:23:58.317Z); fractional digits optional.
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d{1,9})?Z$/;
// arn:<partition>:sns:<region>:<12-digit account>:<topic>; topic names are 1-256 of [A-Za-z0-9_-],
// FIFO topics end in .fifo. Partitions: aws, aws-cn, aws-us-gov, aws-iso...
const TOPIC_ARN = /^arn:aws(?:-[a-z]+)*:sns:[a-z0-9]+(?:-[a-z0-9]+)*:\d{12}:[A-Za-z0-9_-]{1,256}(?:\.fifo)?$/;

/**
 * True for C0 controls (CR, LF, TAB among them) and DEL. AWS's Publish rules allow no line breaks or
 * control characters in a Subject; the other single-line fields are identifiers, timestamps, base64
 * and URLs, which hold none either.
 */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** True when `value` names a real instant: the regex alone admits 2022-02-30 or 25:00. */
function isCalendarTimestamp(value: string): boolean {
  const match = TIMESTAMP.exec(value);
  if (!match) return false;
  const seconds = match[1]!;
  const time = Date.parse(`${seconds}Z`);
  return Number.isFinite(time) && new Date(time).toISOString().startsWith(seconds);
}

/**
 * Checks the formats SNS guarantees, before anything is canonicalised or fetched: no line break or
 * control character in a single-line field, MessageId a UUID, Timestamp ISO 8601 UTC, TopicArn an
 * SNS topic ARN. Messages name the field and the rule, never the value (a Token is a credential).
 */
function checkFieldFormats(record: Record<string, unknown>, type: string): void {
  for (const field of SINGLE_LINE_FIELDS) {
    const value = record[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw invalid(`SNS ${type} field "${field}" is not a string.`);
    if (hasControlCharacter(value)) {
      throw invalid(
        `SNS ${type} field "${field}" contains a line break or control character; SNS never sends one, ` +
          'and in a signed field it could move a field boundary of the signed string.',
      );
    }
  }
  if (!UUID.test(record.MessageId as string)) {
    throw invalid(`SNS ${type} field "MessageId" is not a UUID.`);
  }
  if (!isCalendarTimestamp(record.Timestamp as string)) {
    throw invalid(`SNS ${type} field "Timestamp" is not an ISO 8601 UTC time (YYYY-MM-DDThh:mm:ss[.sss]Z).`);
  }
  if (!TOPIC_ARN.test(record.TopicArn as string)) {
    throw invalid(
      `SNS ${type} field "TopicArn" is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>).`,
    );
  }
}

/**
 * Parses a raw SNS HTTP(S) body into a typed message, checking that every field the message type
 * needs is present and in the format SNS guarantees (no line break or control character in a
 * single-line field, MessageId a UUID, Timestamp ISO 8601 UTC, TopicArn an SNS topic ARN); any
 * failure is `WEBHOOK_BODY_INVALID`. It does not verify the signature: use {@link createSnsVerifier} for that.
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
  checkFieldFormats(record, type);
  if (record.SignatureVersion !== '1' && record.SignatureVersion !== '2') {
    throw new WebhookError(
      'WEBHOOK_SIGNATURE_VERSION_UNSUPPORTED',
      `SNS SignatureVersion ${JSON.stringify(record.SignatureVersion)} is not supported (expected "1" or "2").`,
    );
  }
  return record as unknown as SnsMessage;
}
