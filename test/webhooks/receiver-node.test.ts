import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCode, harness, snsSigner, v2Signer } from './receiver-harness.js';

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
