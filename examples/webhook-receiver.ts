/**
 * Receive the simulator's webhooks locally, verified end to end.
 *
 * Starts a local receiver from 'match-venue/webhooks', subscribes it with notification API v1
 * (SNS-style: the receiver verifies and auto-confirms the confirmation of each region) and v2
 * (order events only: HEAD-validated, ECDSA-signed), places a BURN and a MINT order, clears the
 * auction, prints every verified delivery and exits. By default against an embedded simulator;
 * against MATCH_VENUE_BASE_URL when set (a running `npx match-venue-sim` on this machine: it
 * delivers to the receiver on 127.0.0.1 and clears through its control plane; a venue cannot reach
 * a loopback receiver, so the example says so and stops).
 *
 *     npx tsx examples/webhook-receiver.ts
 *     MATCH_VENUE_BASE_URL=http://127.0.0.1:4010 npx tsx examples/webhook-receiver.ts
 *
 * The receiver trusts the simulator's certificate host (loopback, plain http) through
 * `loopbackUrlPolicy`; a production receiver keeps the default policy, which fetches certificates
 * and SubscribeURLs only from https://sns.<region>.amazonaws.com.
 */
import { EventEmitter, once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MatchVenue, usd } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { createWebhookReceiver, type WebhookEvent } from 'match-venue/webhooks';
import { loopbackUrlPolicy } from 'match-venue/webhooks/testing';
import { openTarget } from './support/target.js';

// Never hang a CI job: give up loudly after 10 s (30 s against another simulator).
const remote = process.env.MATCH_VENUE_BASE_URL;
const watchdog = setTimeout(
  () => {
    console.error('webhook-receiver example timed out');
    process.exit(1);
  },
  remote ? 30_000 : 10_000,
);
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

// Embedded: this process's simulator, whose platform says when its deliveries are done. Another
// simulator: its control plane clears, and the receiver's own deliveries say when to go on.
const sim = remote ? undefined : createSimulator({ clock: 'manual' });
sim?.platform.configure({ retrySchedule: [100, 500] });
const running = await sim?.listen({ host: '127.0.0.1', port: 0 });
const target = remote ? await openTarget() : undefined;
if (target && !target.simulated) {
  console.error(`${target.baseUrl} is not a simulator: a venue cannot deliver to a receiver on 127.0.0.1.`);
  process.exit(1);
}
const baseUrl = running?.url ?? target!.baseUrl;
const party = { burner: target?.burner ?? SEEDED.burner, minter: target?.minter ?? SEEDED.minter };
const burner = new MatchVenue({ apiKey: party.burner.apiKey, baseUrl });
const minter = new MatchVenue({ apiKey: party.minter.apiKey, baseUrl });

// Every verified delivery, as printed; `until` waits for the one a test asks for.
const verified: string[] = [];
const delivered = new EventEmitter();
const seen = (line: string) => {
  console.log(line);
  verified.push(line);
  delivered.emit('delivery');
};
async function until(test: (lines: readonly string[]) => boolean): Promise<void> {
  while (!test(verified)) await once(delivered, 'delivery');
}

const receiver = createWebhookReceiver({
  v1: {
    urlPolicy: loopbackUrlPolicy,
    onSubscriptionConfirmation: (message, { confirmed }) => {
      seen(`v1 SubscriptionConfirmation for ${message.TopicArn} verified; confirmed: ${confirmed}`);
    },
  },
  // Keys come from the platform's public-key endpoint (GET /v2/notifications/publicKey/{keyId}),
  // fetched once per key id with the entity's API key.
  v2: { baseUrl, apiKey: party.burner.apiKey },
  onNotification: (event) => {
    seen(`verified ${describe(event)}`);
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

const confirmations = v1.subscriptionDetails.length;
await (sim?.platform.idle() ??
  until((lines) => lines.filter((l) => l.includes('confirmed: true')).length === confirmations));
const [confirmedV1] = await burner.snsSubscriptions.list();
console.log(`v1 details now: ${confirmedV1?.subscriptionDetails.map((d) => d.status).join(', ')}`);

await burner.orders.place({
  orderType: 'BURN',
  amount: usd('1000'),
  feeBps: '5',
  postFillAction: 'cancel',
  sourceWalletId: party.burner.walletId,
  fiatAccountId: party.burner.fiatAccountId,
});
await minter.orders.place({ orderType: 'MINT', amount: usd('1000'), feeBps: '5', postFillAction: 'cancel' });
if (sim) {
  sim.clearAuction();
  await sim.platform.idle();
} else {
  await target!.clearAuction();
  // The burner's BURN filled, told both ways (v1 has no type filter), and its balance after it.
  await until(
    (lines) =>
      lines.some((l) => /^verified v2 order\.updated .*status=filled/.test(l)) &&
      lines.some((l) => l.startsWith('verified v1 order.updated')) &&
      lines.some((l) => l.startsWith('verified v1 balance.updated')),
  );
}

// Another simulator's deliveries are its own to report, over its control plane; a delivery
// still being retried there is not counted as failed.
const deliveries = sim
  ? sim.platform.deliveries()
  : ((await target!.control('platform/state')) as { deliveries: { state: string }[] }).deliveries;
const failed = deliveries.filter((d) => d.state !== 'delivered' && (sim || d.state !== 'pending'));
console.log(`${deliveries.length} deliveries, ${failed.length} not delivered`);

// v1 can be deleted now that every region entry is confirmed.
await burner.snsSubscriptions.delete(v1.id);

server.closeAllConnections();
await new Promise<void>((resolve) => server.close(() => resolve()));
await running?.close();
await sim?.close();
await target?.close();
clearTimeout(watchdog);
process.exitCode = failed.length === 0 ? 0 : 1;
