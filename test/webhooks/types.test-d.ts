import type { SnsNotification, V2Notification, WebhookErrorCode, WebhookEvent } from 'match-venue/webhooks';
import { createWebhookReceiver } from 'match-venue/webhooks';
import { describe, expectTypeOf, it } from 'vitest';

describe('webhooks types', () => {
  it('narrows WebhookEvent by version', () => {
    const handle = (event: WebhookEvent) => {
      if (event.version === 1) {
        expectTypeOf(event.notification).toEqualTypeOf<SnsNotification>();
      } else {
        expectTypeOf(event.notification).toEqualTypeOf<V2Notification>();
        expectTypeOf(event.keyId).toEqualTypeOf<string>();
      }
    };
    expectTypeOf(handle).parameter(0).toEqualTypeOf<WebhookEvent>();
  });

  it('has string-literal error codes', () => {
    expectTypeOf<'WEBHOOK_SIGNATURE_INVALID'>().toExtend<WebhookErrorCode>();
    expectTypeOf<'SOMETHING_ELSE'>().not.toExtend<WebhookErrorCode>();
  });

  it('exposes the three adapter shapes', () => {
    const receiver = createWebhookReceiver({ v1: {}, onNotification: () => undefined });
    expectTypeOf(receiver.fetch).toEqualTypeOf<(request: Request) => Promise<Response>>();
    expectTypeOf(receiver.node).returns.toEqualTypeOf<void>();
    expectTypeOf(receiver.express).parameters.toHaveProperty('2');
  });
});
