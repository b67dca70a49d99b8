import {
  createWebhookReceiver,
  type WebhookError,
  type WebhookEvent,
  type WebhookReceiverOptions,
} from 'match-venue/webhooks';
import { createSnsTestSigner, createV2TestSigner } from 'match-venue/webhooks/testing';

// Shared by the receiver-*.test.ts files: a receiver wired to test signers that records what it
// reports, and small request/answer helpers.

export const BASE = 'https://api.platform.test';
export const API_KEY = 'TEST_API_KEY:abc:very-secret';
export const HOOK = 'https://receiver.test/hook';

export const v2Signer = createV2TestSigner();
export const snsSigner = createSnsTestSigner();

export interface Harness {
  events: WebhookEvent[];
  errors: { code: string; status: number }[];
  confirmations: { confirmed: boolean }[];
  subscribeFetches: string[];
  receiver: ReturnType<typeof createWebhookReceiver>;
}

export function harness(
  overrides: Partial<WebhookReceiverOptions> & { autoConfirm?: boolean } = {},
): Harness {
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

export function post(body: string, headers: Record<string, string>): Request {
  return new Request(HOOK, { method: 'POST', body, headers });
}

export async function errorCode(response: Response): Promise<string> {
  const body = (await response.json()) as { error: { code: string } };
  return body.error.code;
}
