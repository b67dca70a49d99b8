// Runs under Node 22 with msw 3 (test/runtimes/msw3-node22.test.ts), as a downstream suite would:
// setupServer over the SDK's own handlers with 'error' for anything unhandled (msw 3 names the
// option onUnhandledFrame; msw 2 called it onUnhandledRequest), and clients made with no transport
// option. msw 3 replaces the global fetch but does not see undici's own requests, so the client must
// notice the interceptor and send through fetch. Both URLs below are real servers on loopback: a
// request msw let through would be counted.
import { createServer } from 'node:http';
import { MatchVenue, usd } from 'match-venue';
import { createHandlers } from 'match-venue/msw';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { setupServer } from 'msw/node';
import mswPackage from 'msw/package.json' with { type: 'json' };

/** A real HTTP server on loopback that counts the connections it accepts. */
async function realServer() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{}}');
  });
  const counter = { connections: 0 };
  server.on('connection', () => {
    counter.connections++;
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}`, counter, close: () => server.close() };
}

const handled = await realServer();
const unhandled = await realServer();
const sim = createSimulator();
const server = setupServer(...createHandlers(sim, { baseUrl: handled.url }));
const out = { node: process.versions.node, msw: mswPackage.version };

server.listen({ onUnhandledFrame: 'error' });
const venue = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: handled.url });
out.accountId = (await venue.account.retrieve()).accountId;
const order = await venue.orders.place({
  orderType: 'BURN',
  amount: usd('100'),
  postFillAction: 'cancel',
  sourceWalletId: SEEDED.burner.walletId,
  fiatAccountId: SEEDED.burner.fiatAccountId,
});
out.placed = (await venue.orders.retrieve(order.orderId)).status;
const stray = new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: unhandled.url, maxRetries: 0 });
out.unhandled = await stray.account.retrieve().then(
  () => 'answered',
  (error) => error.kind,
);
out.whileListening = { handled: handled.counter.connections, unhandled: unhandled.counter.connections };
server.close();

// Without msw the same client reaches the real server: the counters do count.
await venue.configuration.retrieve().catch(() => undefined);
out.afterClose = { handled: handled.counter.connections };

await sim.close();
handled.close();
unhandled.close();
console.log(JSON.stringify(out));
