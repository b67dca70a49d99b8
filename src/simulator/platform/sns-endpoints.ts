/**
 * The simulator's stand-ins for the SNS endpoints a subscriber calls: the SubscribeURL
 * (ConfirmSubscription) and the UnsubscribeURL. They answer XML like SNS does.
 */
import { xml, xmlEscape } from './responses.js';
import type { V1SubscriptionStore } from './v1-store.js';

const NS = 'http://sns.amazonaws.com/doc/2010-03-31/';

function snsError(status: number, code: string, message: string): Response {
  return xml(
    status,
    `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${code}</Code>` +
      `<Message>${xmlEscape(message)}</Message></Error><RequestId>${crypto.randomUUID()}</RequestId></ErrorResponse>`,
  );
}

/** GET SubscribeURL: confirms the pending detail the token was issued for (idempotent). */
export function confirmResponse(store: V1SubscriptionStore, url: URL): Response {
  const token = url.searchParams.get('Token') ?? url.searchParams.get('token');
  if (!token) return snsError(400, 'InvalidParameter', 'Token is required.');
  const found = store.confirm(token);
  // An expired (auto-removed) token is indistinguishable from a made-up one, as on SNS.
  if (!found) return snsError(404, 'NotFound', 'Invalid token or the subscription no longer exists.');
  return xml(
    200,
    `<ConfirmSubscriptionResponse xmlns="${NS}"><ConfirmSubscriptionResult>` +
      `<SubscriptionArn>${xmlEscape(found.detail.arn)}</SubscriptionArn></ConfirmSubscriptionResult>` +
      `<ResponseMetadata><RequestId>${crypto.randomUUID()}</RequestId></ResponseMetadata></ConfirmSubscriptionResponse>`,
  );
}

/** GET UnsubscribeURL: marks the detail `deleted`; the v1 subscription itself stays until DELETE. */
export function unsubscribeResponse(store: V1SubscriptionStore, url: URL): Response {
  const arn = url.searchParams.get('SubscriptionArn');
  if (!arn) return snsError(400, 'InvalidParameter', 'SubscriptionArn is required.');
  if (!store.unsubscribe(arn)) return snsError(404, 'NotFound', 'Subscription does not exist.');
  return xml(
    200,
    `<UnsubscribeResponse xmlns="${NS}"><ResponseMetadata><RequestId>${crypto.randomUUID()}</RequestId>` +
      '</ResponseMetadata></UnsubscribeResponse>',
  );
}
