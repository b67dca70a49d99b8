import { WebhookError } from './errors.js';

/**
 * A v2 delivery body. The platform's envelope names the subscription, the notification and its
 * type, and carries the product-specific payload in `notification`; only `notificationType` is
 * required here, so new envelope fields pass through untouched.
 */
export interface V2Notification {
  notificationType: string;
  subscriptionId?: string;
  notificationId?: string;
  notification?: unknown;
  timestamp?: string;
  version?: number;
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
