// The examples' core flow as a client on any runtime: place a BURN and a MINT, clear the auction
// through the simulator's control plane, read both orders back filled, and (where the runtime
// streams) see the burner's fill arrive as a stream event. Then webhook verification: the genuine
// SNS notifications (v1) and signed v2 deliveries. Plain JavaScript, no Node built-ins: Bun and Deno
// run it as it is, the edge test bundles it. Returns what it saw; the vitest side asserts.

/**
 * @param {typeof import('match-venue')} sdk
 * @param {typeof import('match-venue/webhooks')} webhooks
 * @param {{ baseUrl: string, burner: { apiKey: string, walletId: string, fiatAccountId: string },
 *   minter: { apiKey: string }, clientOptions?: object, stream: boolean,
 *   sns: { certificateUrl: string, certificatePem: string, messages: object[] },
 *   v2: { record: object, deliveries: { body: string, headers: Record<string, string> }[] } }} input
 */
export async function runFlow(sdk, webhooks, input) {
  const { MatchVenue, isEvent, usd } = sdk;
  const options = { baseUrl: input.baseUrl, maxRetries: 0, ...input.clientOptions };
  const burner = new MatchVenue({ apiKey: input.burner.apiKey, ...options });
  const minter = new MatchVenue({ apiKey: input.minter.apiKey, ...options });
  const out = {};

  const stream = input.stream ? burner.stream.connect() : undefined;
  const account = stream?.account();
  if (account) out.subscribed = await account.ready;

  const burn = await burner.orders.place({
    orderType: 'BURN',
    amount: usd('1000'),
    feeBps: '6',
    postFillAction: 'cancel',
    sourceWalletId: input.burner.walletId,
    fiatAccountId: input.burner.fiatAccountId,
  });
  const mint = await minter.orders.place({
    orderType: 'MINT',
    amount: usd('600'),
    feeBps: '4',
    postFillAction: 'cancel',
  });
  out.placed = [burn.status, mint.status];

  const clear = await fetch(`${input.baseUrl}/_sim/auctions/clear`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  out.clearStatus = clear.status;
  await clear.arrayBuffer();

  const [burnAfter, mintAfter] = await Promise.all([
    burner.orders.retrieve(burn.orderId),
    minter.orders.retrieve(mint.orderId),
  ]);
  out.filled = [burnAfter, mintAfter].map((order) => ({
    orderType: order.orderType,
    status: order.status,
    filledAmount: order.fill?.filledAmount,
    clearingFeeBps: order.fill?.clearingFeeBps,
  }));

  if (account) {
    for await (const ev of account) {
      if (isEvent(ev, 'order.updated') && ev.data.orderId === burn.orderId && ev.data.fill) {
        out.streamEvent = {
          event: ev.event,
          status: ev.data.status,
          filledAmount: ev.data.fill.filledAmount,
        };
        break;
      }
    }
    await stream.close();
  }

  out.webhooks = await verifyWebhooks(webhooks, input);
  return out;
}

/** The code of the WebhookError `promise` rejects with, or 'verified'. */
async function outcome(promise) {
  try {
    await promise;
    return 'verified';
  } catch (error) {
    return error?.code ?? `not a WebhookError: ${error}`;
  }
}

async function verifyWebhooks(webhooks, input) {
  const { certificateUrl, certificatePem, messages } = input.sns;
  const sns = webhooks.createSnsVerifier({
    fetch: async (url) =>
      url === certificateUrl ? new Response(certificatePem) : new Response('not found', { status: 404 }),
    // The genuine certificate expired in 2022.
    ignoreCertificateExpiry: true,
  });
  const v1 = [];
  for (const message of messages) {
    v1.push(await outcome(sns.verify(JSON.stringify(message))));
    v1.push(await outcome(sns.verify(JSON.stringify({ ...message, Message: `${message.Message} ` }))));
  }
  const v2Verifier = webhooks.createV2Verifier({ getPublicKey: async () => input.v2.record });
  const v2 = [];
  for (const delivery of input.v2.deliveries) {
    v2.push(await outcome(v2Verifier.verify(delivery)));
    v2.push(await outcome(v2Verifier.verify({ ...delivery, body: `${delivery.body} ` })));
  }
  return { v1, v2 };
}
