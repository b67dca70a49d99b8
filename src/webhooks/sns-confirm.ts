import { WebhookError } from './errors.js';
import { type FetchLike, globalFetch } from './fetch.js';
import type { SnsSubscriptionConfirmation, SnsUnsubscribeConfirmation } from './sns-message.js';
import { acceptSnsUrl, type SnsUrlPolicy, snsUrlPolicy } from './sns-url-policy.js';

/** Options of {@link confirmSnsSubscription}. */
export interface ConfirmSnsSubscriptionOptions {
  /** The fetch to open the SubscribeURL with. Default: the global fetch. */
  fetch?: FetchLike;
  /** Same policy as the verifier's; default: https on an SNS host. */
  urlPolicy?: SnsUrlPolicy;
}

/**
 * Confirms a subscription by fetching its SubscribeURL (a GET, as a browser would). Call it only
 * with a message that passed verification. The URL must pass the policy first
 * (`WEBHOOK_SUBSCRIBE_URL_REJECTED`); a network error or non-2xx answer is `WEBHOOK_CONFIRM_FAILED`.
 * Error messages leave out the URL's query, which carries the confirmation token.
 */
export async function confirmSnsSubscription(
  message: SnsSubscriptionConfirmation | SnsUnsubscribeConfirmation,
  options: ConfirmSnsSubscriptionOptions = {},
): Promise<void> {
  const url = acceptSnsUrl(message.SubscribeURL, 'subscribe', options.urlPolicy ?? snsUrlPolicy);
  if (!url) {
    throw new WebhookError(
      'WEBHOOK_SUBSCRIBE_URL_REJECTED',
      'SNS SubscribeURL is not an https URL on an SNS host.',
    );
  }
  const where = `${url.origin}${url.pathname}`;
  let response: Response;
  try {
    response = await (options.fetch ?? globalFetch)(url.href, { method: 'GET', redirect: 'error' });
  } catch (error) {
    throw new WebhookError('WEBHOOK_CONFIRM_FAILED', `Confirming the SNS subscription at ${where} failed.`, {
      cause: error,
    });
  }
  // Drain the body so the connection can be reused; its content (an XML receipt) is not needed.
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) {
    throw new WebhookError(
      'WEBHOOK_CONFIRM_FAILED',
      `Confirming the SNS subscription at ${where} answered HTTP ${response.status}.`,
    );
  }
}
