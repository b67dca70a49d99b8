import { readFileSync } from 'node:fs';
import { type FetchLike, type SnsNotification, WebhookError } from 'match-venue/webhooks';

interface SnsFixture {
  source: string;
  signingCertificatePem: string;
  messages: SnsNotification[];
}

/** The genuine SNS notifications and their (expired) signing certificate. */
export const snsFixture: SnsFixture = JSON.parse(
  readFileSync(new URL('../fixtures/sns/aws-sns-notifications.json', import.meta.url), 'utf8'),
);

export const genuineCertUrl = snsFixture.messages[0]!.SigningCertURL;

/** A fetch serving `pem` at `url` only, recording every URL it is asked for. */
export function certificateServer(url: string, pem: string): FetchLike & { calls: string[] } {
  const calls: string[] = [];
  const fetchFn = async (input: string) => {
    calls.push(input);
    return input === url ? new Response(pem) : new Response('not found', { status: 404 });
  };
  return Object.assign(fetchFn, { calls });
}

/** The raw body of a message, as SNS would post it. */
export const rawBody = (message: object): string => JSON.stringify(message);

/** The stable code of the WebhookError a promise rejects with (fails the test on anything else). */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof WebhookError) return error.code;
  throw new Error(`expected a WebhookError, got ${String(error)}`);
}
