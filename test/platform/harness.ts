/**
 * Test servers for the platform lifecycle tests: the simulator's platform routes served over real
 * HTTP, and a webhook receiver from 'match-venue/webhooks' that records what it verified.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MatchVenue } from 'match-venue';
import { createWebhookReceiver, loopbackUrlPolicy, type WebhookEvent } from 'match-venue/webhooks';
import { parseApiKey } from '../../src/core/api-key.js';
import { ConfigurationResource } from '../../src/resources/configuration.js';
import { Notifications } from '../../src/resources/notifications.js';
import { Subscriptions } from '../../src/resources/subscriptions.js';
import {
  createPlatform,
  type Platform,
  type PlatformDeps,
  type PlatformSigners,
} from '../../src/simulator/platform/index.js';
import { createDefaultSigners } from '../../src/simulator/platform/signers.js';

export const START = Date.UTC(2026, 0, 1);

// One RSA + EC key set per test file: generating a 2048-bit RSA key takes a noticeable moment.
let sharedSigners: PlatformSigners | undefined;
function signers(): PlatformSigners {
  sharedSigners ??= createDefaultSigners();
  return sharedSigners;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export interface PlatformServer {
  url: string;
  platform: Platform;
  /** Every request the server saw, as `METHOD path`. */
  requests: string[];
  advance(ms: number): void;
  close(): Promise<void>;
}

/** The platform behind a minimal router: `/_sim/*` unauthenticated, the rest by `TEST_API_KEY:<entity>:sim`. */
export async function startPlatformServer(deps: Partial<PlatformDeps> = {}): Promise<PlatformServer> {
  let now = START;
  const platform = createPlatform({
    now: () => now,
    fetch: globalThis.fetch,
    mode: 'sandbox',
    retrySchedule: [10, 20, 40],
    signers: signers(),
    ...deps,
  });
  const requests: string[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const request = await toRequest(req, `http://${req.headers.host ?? '127.0.0.1'}`);
      const url = new URL(request.url);
      requests.push(`${request.method} ${url.pathname}`);
      let response: Response | undefined;
      if (url.pathname.startsWith('/_sim/')) {
        response = await platform.handleControl(request);
      } else {
        const key = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '');
        let entityId: string | undefined;
        try {
          entityId = parseApiKey(key).id;
        } catch {
          entityId = undefined;
        }
        response =
          entityId === undefined
            ? Response.json({ code: 401, message: 'Malformed authorization.' }, { status: 401 })
            : await platform.handle(request, { entityId });
      }
      response ??= Response.json({ code: 2, message: 'Not found' }, { status: 404 });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      res.writeHead(response.status, headers);
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  const url = await listen(server);
  return {
    url,
    platform,
    requests,
    advance: (ms) => {
      now += ms;
    },
    async close() {
      await platform.close();
      await stop(server);
    },
  };
}

export interface Receiver {
  url: string;
  events: WebhookEvent[];
  confirmations: string[];
  errors: string[];
  /** Statuses to answer v2/v1 notifications with before handling them (then 200 after). */
  failNext: number[];
  /** Every request (method) the receiver saw. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * A real receiver trusting the simulator's certificate host (loopback) and fetching v2 keys from
 * the simulator with the entity's API key. With `noHead`, HEAD answers 405 (v2 validation fails).
 */
export async function startReceiver(
  simUrl: string,
  apiKey: string,
  options: { noHead?: boolean } = {},
): Promise<Receiver> {
  const events: WebhookEvent[] = [];
  const confirmations: string[] = [];
  const errors: string[] = [];
  const failNext: number[] = [];
  const seen: string[] = [];
  const receiver = createWebhookReceiver({
    v1: {
      urlPolicy: loopbackUrlPolicy,
      onSubscriptionConfirmation: (message) => {
        confirmations.push(message.TopicArn);
      },
    },
    v2: { baseUrl: simUrl, apiKey },
    onNotification: (event) => {
      events.push(event);
    },
    onError: (error) => {
      if (process.env.DEBUG_PLATFORM) console.error(error, error.cause);
      errors.push(error.code);
    },
  });
  const server = createServer((req, res) => {
    seen.push(req.method ?? '');
    if (options.noHead && req.method === 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const status = req.method === 'POST' ? failNext.shift() : undefined;
    if (status !== undefined) {
      req.resume();
      res.writeHead(status).end();
      return;
    }
    receiver.node(req, res);
  });
  const url = `${await listen(server)}/hook`;
  return { url, events, confirmations, errors, failNext, seen, close: () => stop(server) };
}

/** A client of the platform server plus the platform resources built over it. */
export function platformClient(baseUrl: string, apiKey = 'TEST_API_KEY:burner:sim') {
  const venue = new MatchVenue({ apiKey, baseUrl, maxRetries: 0 });
  return {
    venue,
    configuration: new ConfigurationResource(venue),
    subscriptions: new Subscriptions(venue),
    notifications: new Notifications(venue),
  };
}
