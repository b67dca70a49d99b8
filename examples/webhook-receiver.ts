/**
 * Receive the simulator's webhooks locally, verified end to end.
 *
 * Starts the embedded simulator and a local receiver from 'match-venue/webhooks', subscribes it with
 * notification API v1 (SNS-style: the receiver verifies and auto-confirms the confirmation of each
 * region) and v2 (order events only: HEAD-validated, ECDSA-signed), places a BURN and a MINT order,
 * clears the auction, prints every verified delivery and exits.
 *
 *     npx tsx examples/webhook-receiver.ts
 *
 * The receiver trusts the simulator's certificate host (loopback, plain http) through
 * `loopbackUrlPolicy`; a production receiver keeps the default policy, which fetches certificates
 * and SubscribeURLs only from https://sns.<region>.amazonaws.com.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MatchVenue, usd } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { createWebhookReceiver, loopbackUrlPolicy, type WebhookEvent } from 'match-venue/webhooks';

// Never hang a CI job: give up loudly after 10 s.
const watchdog = setTimeout(() => {
  console.error('webhook-receiver example timed out');
  process.exit(1);
}, 10_000);
watchdog.unref();

function describe(event: WebhookEvent): string {
  if (event.version === 2) {
    const { notificationType, notification } = event.notification;
    const order = notification as { orderId?: string; status?: string };
    return `v2 ${notificationType} order=${order.orderId ?? '-'} status=${order.status ?? '-'} (key ${event.keyId.slice(0, 8)}…)`;
  }
  const body = JSON.parse(event.notification.Message) as { notificationType: string };
  return `v1 ${body.notificationType} (SNS message ${event.notification.MessageId.slice(0, 8)}…)`;
}

const sim = createSimulator({ clock: 'manual' });
sim.platform.configure({ retrySchedule: [100, 500] });
const running = await sim.listen({ host: '127.0.0.1', port: 0 });
const burner = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: running.url });
const minter = new MatchVenue({ apiKey: SEEDED.minter.apiKey, baseUrl: running.url });

const receiver = createWebhookReceiver({
  v1: {
    urlPolicy: loopbackUrlPolicy,
    onSubscriptionConfirmation: (message, { confirmed }) => {
      console.log(`v1 SubscriptionConfirmation for ${message.TopicArn} verified; confirmed: ${confirmed}`);
    },
  },
  // Keys come from the platform's public-key endpoint (GET /v2/notifications/publicKey/{keyId}),
  // fetched once per key id with the entity's API key.
  v2: { baseUrl: running.url, apiKey: SEEDED.burner.apiKey },
  onNotification: (event) => {
    console.log(`verified ${describe(event)}`);
  },
  onError: (error) => {
    console.error(`refused a delivery: ${error.code} ${error.message}`);
  },
});
const server = createServer(receiver.node);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

const v1 = await burner.snsSubscriptions.create({ endpoint });
console.log(`v1 subscription ${v1.id}: ${v1.subscriptionDetails.map((d) => d.status).join(', ')}`);
const v2 = await burner.webhookSubscriptions.create({ endpoint, notificationTypes: ['order.*'] });
console.log(`v2 subscription ${v2.id} for ${v2.notificationTypes?.join(', ')}`);

await sim.platform.idle();
const [confirmedV1] = await burner.snsSubscriptions.list();
console.log(`v1 details now: ${confirmedV1?.subscriptionDetails.map((d) => d.status).join(', ')}`);

await burner.orders.place({
  orderType: 'BURN',
  amount: usd('1000'),
  feeBps: '5',
  postFillAction: 'cancel',
  sourceWalletId: SEEDED.burner.walletId,
  fiatAccountId: SEEDED.burner.fiatAccountId,
});
await minter.orders.place({ orderType: 'MINT', amount: usd('1000'), feeBps: '5', postFillAction: 'cancel' });
sim.clearAuction();
await sim.platform.idle();

const deliveries = sim.platform.deliveries();
const failed = deliveries.filter((d) => d.state !== 'delivered');
console.log(`${deliveries.length} deliveries, ${failed.length} not delivered`);

// v1 can be deleted now that every region entry is confirmed.
await burner.snsSubscriptions.delete(v1.id);

server.closeAllConnections();
await new Promise<void>((resolve) => server.close(() => resolve()));
await running.close();
await sim.close();
clearTimeout(watchdog);
process.exitCode = failed.length === 0 ? 0 : 1;
