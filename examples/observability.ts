/**
 * Observability: OpenTelemetry spans of SDK calls printed to the console, `venue.on` hooks, and
 * the client request id a failed call carries.
 *   npx tsx examples/observability.ts              (embedded simulator)
 *   MATCH_VENUE_BASE_URL=http://127.0.0.1:4010 npx tsx examples/observability.ts
 * Needs @opentelemetry/api, @opentelemetry/sdk-trace-base and @opentelemetry/context-async-hooks
 * (devDependencies here); a real service would export to a collector instead of the console.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MatchVenue, usd } from 'match-venue';
import { openTarget } from './support/target.js';

// Register a provider first: the SDK starts spans only once one is registered.
const provider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())],
});
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(provider);

const target = await openTarget();
try {
  const venue = new MatchVenue({ apiKey: target.burner.apiKey, baseUrl: target.baseUrl });
  venue.on('response', (e) =>
    console.log(
      `hook: ${e.name} attempt ${e.attempt} -> ${e.status} in ${e.durationMs.toFixed(1)} ms [${e.requestId}]`,
    ),
  );

  // Each call: a span `match_venue orders.place` with a client span `POST /v1/match/orders` under it.
  const placed = await venue.orders.place({
    orderType: 'BURN',
    amount: usd('1000'),
    feeBps: '5',
    postFillAction: 'cancel',
    sourceWalletId: target.burner.walletId,
    fiatAccountId: target.burner.fiatAccountId,
  });
  await venue.orders.retrieve(placed.orderId);

  // A failed call names the request id it sent on every attempt: the venue's logs have it too.
  const err = await venue.orders.retrieve('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
  const { kind, clientRequestId, attempts } = err as {
    kind: string;
    clientRequestId: string;
    attempts: number;
  };
  console.log(`failed as ${kind} after ${attempts} attempt(s); client request id ${clientRequestId}`);
  console.log('observability done');
} finally {
  await provider.shutdown();
  trace.disable();
  context.disable();
  await target.close();
}
