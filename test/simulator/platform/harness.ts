/**
 * Test fixtures for the platform lifecycle tests: the real simulator ('match-venue/simulator')
 * listening on loopback, a webhook receiver from 'match-venue/webhooks' that records what it
 * verified, and clients whose every request is logged (so a test can assert what was NOT sent).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MatchVenue } from 'match-venue';
import { createSimulator, type Simulator } from 'match-venue/simulator';
import { createWebhookReceiver, type WebhookEvent } from 'match-venue/webhooks';
import { loopbackUrlPolicy } from 'match-venue/webhooks/testing';
import type { Platform, PlatformMode } from '../../../src/simulator/platform/index.js';

export const BURNER = 'TEST_API_KEY:burner:sim';
export const MINTER = 'TEST_API_KEY:minter:sim';

export interface SimServer {
  url: string;
  sim: Simulator;
  platform: Platform;
  /** `METHOD /path` of every request made by clients from {@link SimServer.client}. */
  requests: string[];
  entityId(apiKey: string): string;
  client(apiKey?: string): ReturnType<typeof platformClient>;
  close(): Promise<void>;
}

/**
 * The simulator on a manual clock with day-long auction cycles (so advancing 30 days stays cheap)
 * and fast delivery retries.
 */
export async function startSimulator(
  options: { mode?: PlatformMode; retrySchedule?: number[]; deliveryTimeoutMs?: number } = {},
): Promise<SimServer> {
  const sim = createSimulator({
    clock: 'manual',
    // Fixed, so that expectations can name exact instants (createDate and the like).
    startTime: '2026-01-01T00:00:00.000Z',
    cycleMs: 24 * 60 * 60 * 1000,
    platformMode: options.mode ?? 'sandbox',
  });
  sim.platform.configure({
    retrySchedule: options.retrySchedule ?? [10, 20, 40],
    ...(options.deliveryTimeoutMs === undefined ? {} : { deliveryTimeoutMs: options.deliveryTimeoutMs }),
  });
  const running = await sim.listen({ host: '127.0.0.1', port: 0 });
  const requests: string[] = [];
  return {
    url: running.url,
    sim,
    platform: sim.platform,
    requests,
    entityId(apiKey) {
      const entity = sim.entityForApiKey(apiKey);
      if (!entity) throw new Error('unknown seeded key');
      return entity.entityId;
    },
    client: (apiKey = BURNER) => platformClient(running.url, apiKey, requests),
    async close() {
      await sim.platform.idle();
      await running.close();
      await sim.close();
    },
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface Receiver {
  url: string;
  events: WebhookEvent[];
  /** TopicArn of every verified (and, unless disabled, confirmed) SubscriptionConfirmation. */
  confirmations: string[];
  /** WebhookError codes of refused deliveries. */
  errors: string[];
  /** Statuses to answer the next POSTs with, without handling them. */
  failNext: number[];
  /** Raw bodies of the POSTs answered from {@link failNext} (never verified or handled). */
  unhandled: string[];
  /** Method of every request the receiver saw. */
  seen: string[];
  /** URLs the receiver fetched (certificates, SubscribeURLs, public keys). */
  fetched: string[];
  close(): Promise<void>;
}

/**
 * A real receiver trusting the simulator's loopback certificate host and fetching v2 keys from
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
  const unhandled: string[] = [];
  const seen: string[] = [];
  const fetched: string[] = [];
  const loggingFetch = (input: string, init?: RequestInit) => {
    fetched.push(new URL(input).pathname);
    return fetch(input, init);
  };
  const receiver = createWebhookReceiver({
    v1: {
      urlPolicy: loopbackUrlPolicy,
      fetch: loggingFetch,
      onSubscriptionConfirmation: (message) => {
        confirmations.push(message.TopicArn);
      },
    },
    v2: { baseUrl: simUrl, apiKey, fetch: loggingFetch },
    onNotification: (event) => {
      events.push(event);
    },
    onError: (error) => {
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
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        unhandled.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(status).end();
      });
      return;
    }
    receiver.node(req, res);
  });
  const url = `${await listen(server)}/hook`;
  return {
    url,
    events,
    confirmations,
    errors,
    failNext,
    unhandled,
    seen,
    fetched,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A client and the platform resources over it; every request is logged into `requests`. */
export function platformClient(baseUrl: string, apiKey = BURNER, requests: string[] = []) {
  const venue = new MatchVenue({
    apiKey,
    baseUrl,
    maxRetries: 0,
    fetch: (input, init) => {
      requests.push(`${init.method ?? 'GET'} ${new URL(input).pathname}`);
      return fetch(input, init);
    },
  });
  return {
    venue,
    requests,
    configuration: venue.configuration,
    snsSubscriptions: venue.snsSubscriptions,
    webhookSubscriptions: venue.webhookSubscriptions,
  };
}
