import { isEvent, MatchVenue, usd } from 'match-venue';
import { createSimulator, SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { API_KEY as RECEIVER_KEY, harness, post, snsSigner, v2Signer } from '../webhooks/receiver-harness.js';
import { cassettePath, httpLines, readBack, webhookLines, wsLines } from './files.js';

// What a cassette must never hold, checked over a whole recorded session in one file (REST with the
// ticket call, a stream, webhook deliveries): no API key whole or in part, no Authorization or
// Bearer credential, no ticket or other JWT, no SNS signature material. Ids and amounts stay.

const JWT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+/;

describe('record: redaction', () => {
  it('a recorded session holds no secret, and keeps its ids and amounts', async () => {
    const sim = createSimulator();
    const running = await sim.listen();
    const file = cassettePath();
    const tickets: string[] = [];
    try {
      const venue = new MatchVenue({
        apiKey: SEEDED.burner.apiKey,
        baseUrl: running.url,
        record: file,
        // Sees every ticket the client is given, the stream's included, to look for them after.
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          if (input.endsWith('/v1/match/ws/ticket'))
            tickets.push(((await response.clone().json()) as { data: { ticket: string } }).data.ticket);
          return response;
        },
      });
      const explicit = await venue.stream.ticket();
      const stream = venue.stream.connect();
      const account = stream.account();
      expect(await account.ready).toBe(true);
      const placed = await venue.orders.place({
        orderType: 'BURN',
        amount: usd('1300'),
        feeBps: '5',
        postFillAction: 'cancel',
        sourceWalletId: SEEDED.burner.walletId,
        fiatAccountId: SEEDED.burner.fiatAccountId,
      });
      for await (const ev of account) if (isEvent(ev, 'order.accepted')) break;
      await stream.close();

      const { receiver } = harness({ record: file });
      const v2 = v2Signer.notification({
        notificationType: 'transfers.created',
        notification: { id: 'tr_9' },
      });
      await receiver.fetch(post(v2.body, v2.headers));
      const message = snsSigner.notification({ Message: '{"transferId":"tr_10","amount":"77.00"}' });
      const sns = snsSigner.delivery(message);
      await receiver.fetch(post(sns.body, sns.headers));

      const doc = readBack(file);
      // The session is all there: the ticket calls, a connection, both deliveries.
      expect(httpLines(doc).filter((l) => l.request.path === '/v1/match/ws/ticket')).toHaveLength(2);
      expect(wsLines(doc).some((l) => l.event === 'open')).toBe(true);
      expect(webhookLines(doc)).toHaveLength(2);
      expect(tickets).toHaveLength(2);
      expect(tickets).toContain(explicit.ticket);

      const text = doc.text;
      expect(text).not.toContain(SEEDED.burner.apiKey);
      expect(text).not.toContain(RECEIVER_KEY);
      expect(text).not.toContain('very-secret');
      expect(text).not.toMatch(/TEST_API_KEY:[^[]/);
      expect(text).not.toMatch(/authorization/i);
      expect(text).not.toMatch(/bearer/i);
      expect(text).not.toMatch(JWT);
      for (const ticket of tickets) expect(text).not.toContain(ticket);
      expect(text).not.toMatch(/ticket\.[^[]/);
      expect(text).not.toContain(message.Signature);
      expect(text).not.toContain(message.SigningCertURL);
      expect(text).not.toContain(v2.headers[Object.keys(v2.headers).find((h) => /signature/i.test(h)) ?? '']);

      // Ids and amounts are kept.
      expect(text).toContain(placed.orderId);
      expect(text).toContain(SEEDED.burner.walletId);
      expect(text).toContain('"amount":"1300.00"');
      expect(text).toContain('"amount":130000');
      expect(text).toContain('tr_9');
      expect(text).toContain('77.00');
    } finally {
      await running.close();
      await sim.close();
    }
  });

  it("an API key's secret part is removed wherever a server echoes it", async () => {
    const file = cassettePath();
    const apiKey = 'TEST_API_KEY:abc:a-long-secret-part-0042';
    const venue = new MatchVenue({
      apiKey,
      record: file,
      // A server that echoes the credential back, whole and in parts, in its answer.
      handler: async (request) =>
        Response.json({
          data: {
            seen: request.headers.get('authorization'),
            part: 'a-long-secret-part-0042',
            note: `key was ${apiKey}`,
            id: 'cfg_1',
          },
        }),
    });
    await venue.configuration.retrieve().catch(() => undefined);
    const doc = readBack(file);
    const [line] = httpLines(doc);
    expect(line?.keyId).toBe('abc');
    expect(line?.response?.status).toBe(200);
    expect(doc.text).not.toContain('a-long-secret-part-0042');
    // The echoed header keeps its scheme's name, never the credential.
    expect(doc.text).toContain('"seen":"Bearer [redacted]"');
    expect(doc.text).not.toMatch(/TEST_API_KEY:[^[]/);
    expect(doc.text).toContain('cfg_1');
  });
});
