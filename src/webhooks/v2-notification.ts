import { WebhookError } from './errors.js';

/**
 * A v2 delivery body. The platform's envelope names the subscription, the notification and its
 * type, and carries the product-specific payload in `notification`; only `notificationType` is
 * required here, so new envelope fields pass through untouched.
 */
export interface V2Notification {
  /** What happened, e.g. `transfers.completed`; the only field required. */
  notificationType: string;
  /** The subscription the delivery is for. */
  subscriptionId?: string;
  /** Unique per notification; a redelivery repeats it, so use it to drop duplicates. */
  notificationId?: string;
  /** The product-specific payload. */
  notification?: unknown;
  /** When the notification was created, ISO 8601. */
  timestamp?: string;
  /** The envelope's version. */
  version?: number;
  /** Envelope fields this version does not know are kept. */
  [field: string]: unknown;
}

/** Parses a verified v2 body; `WEBHOOK_BODY_INVALID` unless it is a JSON object with a notificationType. */
export function parseV2Notification(text: string): V2Notification {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new WebhookError('WEBHOOK_BODY_INVALID', 'v2 notification body is not valid JSON.', {
      cause: error,
    });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new WebhookError('WEBHOOK_BODY_INVALID', 'v2 notification body is not a JSON object.');
  }
  if (typeof (parsed as { notificationType?: unknown }).notificationType !== 'string') {
    throw new WebhookError(
      'WEBHOOK_BODY_INVALID',
      'v2 notification body lacks the string field "notificationType".',
    );
  }
  return parsed as V2Notification;
}
