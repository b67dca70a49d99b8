import { createWebhookReceiver, WebhookError, type WebhookEvent } from 'match-venue/webhooks';
import { describe, expect, it } from 'vitest';
import { API_KEY, BASE, errorCode, HOOK, harness, post, snsSigner, v2Signer } from './receiver-harness.js';

describe('fetch-style receiver', () => {
  it('answers HEAD with 200 and an empty body (v1 warm-up, v2 URL validation)', async () => {
    const { receiver, events } = harness();
    const response = await receiver.fetch(new Request(HOOK, { method: 'HEAD' }));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(events).toEqual([]);
  });

  it('answers other methods with 405 and Allow', async () => {
    const { receiver } = harness();
    const response = await receiver.fetch(new Request(HOOK, { method: 'GET' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('HEAD, POST');
  });

  it('a good v2 POST answers 200 and calls the handler once with the parsed notification', async () => {
    const { receiver, events } = harness();
    const delivery = v2Signer.notification({
      notificationType: 'transfers.created',
      notification: { id: 'n1' },
    });
    const response = await receiver.fetch(post(delivery.body, delivery.headers));
    expect(response.status).toBe(200);
    expect(events).toEqual([{ version: 2, keyId: v2Signer.keyId, notification: delivery.notification }]);
  });

  it('a good v1 notification answers 200 and calls the handler once', async () => {
    const { receiver, events } = harness();
    const message = snsSigner.notification({ Message: '{"clientId":"c1"}', Subject: 'event' });
    const { body, headers } = snsSigner.delivery(message);
    const response = await receiver.fetch(post(body, headers));
    expect(response.status).toBe(200);
    expect(events).toEqual([{ version: 1, notification: message }]);
  });

  it('a bad v2 signature answers 400 with the code, never calls the handler, never echoes the API key', async () => {
    const { receiver, events, errors } = harness();
    const delivery = v2Signer.notification({ notificationType: 'x', notification: { amount: '1.00' } });
    const response = await receiver.fetch(post(delivery.body.replace('1.00', '9.00'), delivery.headers));
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(JSON.parse(text).error.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(text).not.toContain('very-secret');
    expect(events).toEqual([]);
    expect(errors).toEqual([{ code: 'WEBHOOK_SIGNATURE_INVALID', status: 400 }]);
  });

  it('a bad v1 signature answers 400', async () => {
    const { receiver, events } = harness();
    const message = snsSigner.notification({ Message: 'original' });
    const { body, headers } = snsSigner.delivery({ ...message, Message: 'forged' });
    const response = await receiver.fetch(post(body, headers));
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(events).toEqual([]);
  });

  it('a malformed body answers 400', async () => {
    const { receiver } = harness();
    const response = await receiver.fetch(post('not json', {}));
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('WEBHOOK_BODY_INVALID');
  });

  it('a throwing handler answers 500 (so the platform retries) without echoing its message', async () => {
    const { receiver, errors } = harness({
      onNotification: () => {
        throw new Error('db password is hunter2');
      },
    });
    const delivery = v2Signer.notification({ notificationType: 'x' });
    const response = await receiver.fetch(post(delivery.body, delivery.headers));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text).error.code).toBe('WEBHOOK_HANDLER_FAILED');
    expect(text).not.toContain('hunter2');
    expect(errors).toEqual([{ code: 'WEBHOOK_HANDLER_FAILED', status: 500 }]);
  });

  it('an async handler that rejects answers 500 too', async () => {
    const { receiver } = harness({ onNotification: async () => Promise.reject(new Error('later')) });
    const message = snsSigner.notification({ Message: 'm' });
    const response = await receiver.fetch(post(JSON.stringify(message), {}));
    expect(response.status).toBe(500);
  });

  it('auto-confirms a verified SubscriptionConfirmation by fetching its SubscribeURL', async () => {
    const { receiver, events, confirmations, subscribeFetches } = harness();
    const message = snsSigner.subscriptionConfirmation();
    const response = await receiver.fetch(post(JSON.stringify(message), {}));
    expect(response.status).toBe(200);
    expect(subscribeFetches).toEqual([message.SubscribeURL]);
    expect(confirmations).toEqual([{ confirmed: true }]);
    expect(events).toEqual([]);
  });

  it('does not confirm when autoConfirm is false, but still reports the confirmation', async () => {
    const { receiver, confirmations, subscribeFetches } = harness({ autoConfirm: false });
    const response = await receiver.fetch(post(JSON.stringify(snsSigner.subscriptionConfirmation()), {}));
    expect(response.status).toBe(200);
    expect(subscribeFetches).toEqual([]);
    expect(confirmations).toEqual([{ confirmed: false }]);
  });

  it('does not confirm a SubscriptionConfirmation whose signature fails', async () => {
    const { receiver, subscribeFetches } = harness();
    const message = snsSigner.subscriptionConfirmation();
    const forged = { ...message, Token: 'attacker' };
    const response = await receiver.fetch(post(JSON.stringify(forged), {}));
    expect(response.status).toBe(400);
    expect(subscribeFetches).toEqual([]);
  });

  it('answers 503 when the confirmation fetch fails, inviting a redelivery', async () => {
    const events: WebhookEvent[] = [];
    const receiver = createWebhookReceiver({
      v1: {
        fetch: async (url, init) =>
          url.includes('ConfirmSubscription')
            ? new Response('', { status: 500 })
            : snsSigner.fetch(url, init),
      },
      onNotification: (event) => {
        events.push(event);
      },
    });
    const response = await receiver.fetch(post(JSON.stringify(snsSigner.subscriptionConfirmation()), {}));
    expect(response.status).toBe(503);
    expect(await errorCode(response)).toBe('WEBHOOK_CONFIRM_FAILED');
  });

  it('answers 503 when the v2 key cannot be fetched', async () => {
    const receiver = createWebhookReceiver({
      v2: { baseUrl: BASE, apiKey: API_KEY, fetch: async () => new Response('', { status: 502 }) },
      onNotification: () => undefined,
    });
    const delivery = v2Signer.notification({ notificationType: 'x' });
    const response = await receiver.fetch(post(delivery.body, delivery.headers));
    expect(response.status).toBe(503);
    expect(await errorCode(response)).toBe('WEBHOOK_KEY_FETCH_FAILED');
  });

  it.each([
    ['rejects', async () => Promise.reject(new Error(`vault unreachable with ${API_KEY}`))],
    [
      'throws synchronously',
      () => {
        throw new Error(`vault unreachable with ${API_KEY}`);
      },
    ],
  ])(
    'answers 503 WEBHOOK_KEY_FETCH_FAILED when getPublicKey %s, and retries it next time',
    async (_how, failing) => {
      const errors: { code: string; status: number; cause: unknown }[] = [];
      const events: WebhookEvent[] = [];
      let fail = true;
      const receiver = createWebhookReceiver({
        v2: {
          // Not async: a synchronous throw must be caught as well as a rejection.
          getPublicKey: () => (fail ? failing() : Promise.resolve(v2Signer.publicKeyResponse)),
        },
        onNotification: (event) => {
          events.push(event);
        },
        onError: (error, context) =>
          errors.push({ code: error.code, status: context.status, cause: error.cause }),
      });
      const delivery = v2Signer.notification({ notificationType: 'x' });
      const response = await receiver.fetch(post(delivery.body, delivery.headers));
      expect(response.status).toBe(503);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({
        error: { code: 'WEBHOOK_KEY_FETCH_FAILED', message: `getPublicKey(${v2Signer.keyId}) failed.` },
      });
      expect(text).not.toContain('very-secret');
      expect(text).not.toContain('vault');
      expect(errors).toEqual([
        {
          code: 'WEBHOOK_KEY_FETCH_FAILED',
          status: 503,
          cause: expect.objectContaining({ message: expect.stringMatching(/^vault/) }),
        },
      ]);
      expect(events).toEqual([]);
      // The failure is not cached: once the hook recovers, the redelivery verifies.
      fail = false;
      const retried = await receiver.fetch(post(delivery.body, delivery.headers));
      expect(retried.status).toBe(200);
      expect(events).toHaveLength(1);
    },
  );

  it('a WebhookError thrown by getPublicKey keeps its own code and status', async () => {
    const receiver = createWebhookReceiver({
      v2: {
        getPublicKey: async () => {
          throw new WebhookError('WEBHOOK_KEY_INVALID', 'The vault holds no usable key.');
        },
      },
      onNotification: () => undefined,
    });
    const delivery = v2Signer.notification({ notificationType: 'x' });
    const response = await receiver.fetch(post(delivery.body, delivery.headers));
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('WEBHOOK_KEY_INVALID');
  });

  it('a v2-only receiver refuses an unsigned POST with 400 WEBHOOK_HEADER_MISSING', async () => {
    const receiver = createWebhookReceiver({
      v2: { baseUrl: BASE, apiKey: API_KEY, fetch: v2Signer.fetch },
      onNotification: () => undefined,
    });
    const response = await receiver.fetch(post(JSON.stringify(snsSigner.notification({ Message: 'm' })), {}));
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('WEBHOOK_HEADER_MISSING');
  });

  it('refuses a body over maxBodyBytes with 413', async () => {
    const { receiver, events } = harness({ maxBodyBytes: 64 });
    const delivery = v2Signer.notification({ notificationType: 'x', notification: { pad: 'y'.repeat(100) } });
    const response = await receiver.fetch(post(delivery.body, delivery.headers));
    expect(response.status).toBe(413);
    expect(events).toEqual([]);
  });

  it('needs at least one version configured', () => {
    expect(() => createWebhookReceiver({ onNotification: () => undefined })).toThrow(
      expect.objectContaining({ code: 'WEBHOOK_CONFIG_INVALID' }),
    );
  });
});
