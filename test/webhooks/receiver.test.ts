import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createSnsTestSigner,
  createV2TestSigner,
  createWebhookReceiver,
  WebhookError,
  type WebhookEvent,
  type WebhookReceiverOptions,
} from 'match-venue/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BASE = 'https://api.platform.test';
const API_KEY = 'TEST_API_KEY:abc:very-secret';
const HOOK = 'https://receiver.test/hook';

const v2Signer = createV2TestSigner();
const snsSigner = createSnsTestSigner();

interface Harness {
  events: WebhookEvent[];
  errors: { code: string; status: number }[];
  confirmations: { confirmed: boolean }[];
  subscribeFetches: string[];
  receiver: ReturnType<typeof createWebhookReceiver>;
}

function harness(overrides: Partial<WebhookReceiverOptions> & { autoConfirm?: boolean } = {}): Harness {
  const events: WebhookEvent[] = [];
  const errors: { code: string; status: number }[] = [];
  const confirmations: { confirmed: boolean }[] = [];
  const subscribeFetches: string[] = [];
  const snsFetch = async (url: string, init?: RequestInit) => {
    if (url.includes('Action=ConfirmSubscription')) {
      subscribeFetches.push(url);
      return new Response('<ConfirmSubscriptionResponse/>');
    }
    return snsSigner.fetch(url, init);
  };
  const receiver = createWebhookReceiver({
    v1: {
      fetch: snsFetch,
      ...(overrides.autoConfirm !== undefined ? { autoConfirm: overrides.autoConfirm } : {}),
      onSubscriptionConfirmation: (_message, info) => {
        confirmations.push(info);
      },
    },
    v2: { baseUrl: BASE, apiKey: API_KEY, fetch: v2Signer.fetch },
    onNotification: (event) => {
      events.push(event);
    },
    onError: (error: WebhookError, context) => errors.push({ code: error.code, status: context.status }),
    ...overrides,
  });
  return { events, errors, confirmations, subscribeFetches, receiver };
}

function post(body: string, headers: Record<string, string>): Request {
  return new Request(HOOK, { method: 'POST', body, headers });
}

async function errorCode(response: Response): Promise<string> {
  const body = (await response.json()) as { error: { code: string } };
  return body.error.code;
}

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

describe('node adapter given a parsed body by a framework', () => {
  it('answers 500 WEBHOOK_BODY_NOT_RAW (a server misconfiguration, so deliveries retry after the fix)', async () => {
    const { receiver, events } = harness();
    const request = {
      method: 'POST',
      headers: {},
      body: { Type: 'Notification' },
      async *[Symbol.asyncIterator]() {},
    };
    const sent = await new Promise<{ status: number; body: string | undefined }>((resolve) => {
      const response = {
        statusCode: 0,
        setHeader: () => undefined,
        end(body?: string) {
          resolve({ status: this.statusCode, body });
        },
      };
      receiver.node(request, response);
    });
    expect(sent.status).toBe(500);
    expect(JSON.parse(sent.body ?? '{}').error.code).toBe('WEBHOOK_BODY_NOT_RAW');
    expect(events).toEqual([]);
  });
});

describe('node:http and Express-style adapters on a loopback server', () => {
  const h = harness();
  // Stands in for Express: `parse` plays the body parser mounted before the middleware.
  // 'skipped' plays Express 4's express.json() on a text/plain post: `{}` attached, stream unread.
  let parse: ((req: IncomingMessage, raw: Buffer) => unknown) | 'no body parser' | 'skipped' = () =>
    undefined;
  const nextErrors: unknown[] = [];
  let nodeServer: Server;
  let expressServer: Server;
  let nodeUrl = '';
  let expressUrl = '';

  const listen = (server: Server) =>
    new Promise<string>((resolve) => {
      server.listen(0, '127.0.0.1', () =>
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`),
      );
    });

  beforeAll(async () => {
    nodeServer = createServer(h.receiver.node);
    expressServer = createServer(async (req, res) => {
      let request: IncomingMessage & { body?: unknown } = req;
      if (parse === 'skipped') {
        request = Object.assign(req, { body: {} });
      } else if (parse !== 'no body parser') {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        request = Object.assign(req, { body: parse(req, Buffer.concat(chunks)) });
      }
      h.receiver.express(request, res, (error?: unknown) => {
        nextErrors.push(error);
        res.statusCode = 500;
        res.end('express error handler');
      });
    });
    nodeUrl = await listen(nodeServer);
    expressUrl = await listen(expressServer);
  });

  afterAll(async () => {
    await Promise.all(
      [nodeServer, expressServer].map(
        (server) => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
      ),
    );
  });

  it('node: HEAD answers 200', async () => {
    const response = await fetch(nodeUrl, { method: 'HEAD' });
    expect(response.status).toBe(200);
  });

  it('node: reads the raw body itself; a good POST answers 200 and reaches the handler', async () => {
    h.events.length = 0;
    const delivery = v2Signer.notification({ notificationType: 'node.test', notification: { n: 1 } });
    const response = await fetch(nodeUrl, { method: 'POST', body: delivery.body, headers: delivery.headers });
    expect(response.status).toBe(200);
    expect(h.events).toEqual([{ version: 2, keyId: v2Signer.keyId, notification: delivery.notification }]);
  });

  it('node: a bad signature answers 400', async () => {
    const delivery = v2Signer.notification({ notificationType: 'node.test' });
    const response = await fetch(nodeUrl, {
      method: 'POST',
      body: `${delivery.body} `,
      headers: delivery.headers,
    });
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('node: a v1 message verifies through the same server', async () => {
    h.events.length = 0;
    const message = snsSigner.notification({ Message: 'over node' });
    const { body, headers } = snsSigner.delivery(message);
    const response = await fetch(nodeUrl, { method: 'POST', body, headers });
    expect(response.status).toBe(200);
    expect(h.events).toEqual([{ version: 1, notification: message }]);
  });

  it('express: works with a Buffer body from express.raw()', async () => {
    h.events.length = 0;
    parse = (_req, raw) => raw;
    const delivery = v2Signer.notification({ notificationType: 'express.raw' });
    const response = await fetch(expressUrl, {
      method: 'POST',
      body: delivery.body,
      headers: delivery.headers,
    });
    expect(response.status).toBe(200);
    expect(h.events).toHaveLength(1);
  });

  it('express: a body already parsed by express.json() goes to next() as WEBHOOK_BODY_NOT_RAW', async () => {
    h.events.length = 0;
    nextErrors.length = 0;
    parse = (_req, raw) => JSON.parse(raw.toString('utf8'));
    const delivery = v2Signer.notification({ notificationType: 'express.json' });
    const response = await fetch(expressUrl, {
      method: 'POST',
      body: delivery.body,
      headers: delivery.headers,
    });
    expect(response.status).toBe(500);
    expect(nextErrors).toHaveLength(1);
    expect(nextErrors[0]).toMatchObject({ code: 'WEBHOOK_BODY_NOT_RAW' });
    expect((nextErrors[0] as Error).message).toMatch(/express\.raw/);
    expect(h.events).toEqual([]);
  });

  it('express: with no body parser on the route it reads the raw stream itself', async () => {
    h.events.length = 0;
    parse = 'no body parser';
    const message = snsSigner.notification({ Message: 'streamed' });
    const { body, headers } = snsSigner.delivery(message);
    const response = await fetch(expressUrl, { method: 'POST', body, headers });
    expect(response.status).toBe(200);
    expect(h.events).toEqual([{ version: 1, notification: message }]);
  });

  it('express: a JSON parser that skipped a text/plain SNS post (left {}, stream unread) is harmless', async () => {
    h.events.length = 0;
    nextErrors.length = 0;
    parse = 'skipped';
    const message = snsSigner.notification({ Message: 'skipped by express.json' });
    const { body, headers } = snsSigner.delivery(message);
    const response = await fetch(expressUrl, { method: 'POST', body, headers });
    expect(response.status).toBe(200);
    expect(nextErrors).toEqual([]);
    expect(h.events).toEqual([{ version: 1, notification: message }]);
  });

  it('express: HEAD answers 200 even behind a JSON parser that left {}', async () => {
    parse = () => ({});
    const response = await fetch(expressUrl, { method: 'HEAD' });
    expect(response.status).toBe(200);
  });
});
