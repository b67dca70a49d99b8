import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { WebhookError } from 'match-venue/webhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { harness, post, snsSigner, v2Signer } from '../webhooks/receiver-harness.js';
import { cassettePath, readBack, webhookLines } from './files.js';

// `record` on the webhook receiver: one `webhook` line per delivery it verified, without what
// proved it (the SNS signature fields, the confirmation token); a refused delivery is not written.

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('record: the webhook receiver', () => {
  it('writes each verified delivery, v2 and SNS, and none it refused', async () => {
    const file = cassettePath();
    const { receiver, events } = harness({ record: file });
    const v2 = v2Signer.notification({
      notificationType: 'transfers.created',
      notification: { id: 'tr_1', amount: { amount: '12.50', currency: 'USD' } },
    });
    expect((await receiver.fetch(post(v2.body, v2.headers))).status).toBe(200);
    const notification = snsSigner.notification({ Message: '{"orderId":"ord_7","amount":"40.00"}' });
    const sns = snsSigner.delivery(notification);
    expect((await receiver.fetch(post(sns.body, sns.headers))).status).toBe(200);
    const confirmation = snsSigner.subscriptionConfirmation();
    const confirm = snsSigner.delivery(confirmation);
    expect((await receiver.fetch(post(confirm.body, confirm.headers))).status).toBe(200);
    // Forged: refused, and not written.
    const forged = v2Signer.notification({ notificationType: 'x', notification: { amount: '1.00' } });
    expect((await receiver.fetch(post(forged.body.replace('1.00', '9.00'), forged.headers))).status).toBe(
      400,
    );
    expect(events).toHaveLength(2);

    const doc = readBack(file);
    const lines = webhookLines(doc);
    expect(lines.map((l) => l.scheme)).toEqual(['v2', 'sns', 'sns']);
    expect(lines[0]).toMatchObject({ keyId: v2Signer.keyId, message: v2.notification });
    const { Signature, SigningCertURL, SignatureVersion, ...unsigned } = notification;
    expect(lines[1]?.message).toEqual(unsigned);
    expect(lines[1]?.keyId).toBeUndefined();
    expect(lines[2]?.message).toMatchObject({ Type: 'SubscriptionConfirmation', Token: '[redacted]' });
    expect(lines[2]?.message).toMatchObject({
      SubscribeURL: expect.stringMatching(/[?&]Token=\[redacted\]/),
    });
    for (const secret of [Signature, SigningCertURL, confirmation.Signature, confirmation.Token]) {
      expect(doc.text).not.toContain(secret);
    }
    expect(doc.text).not.toContain('"SignatureVersion"');
  });

  it('MATCH_VENUE_RECORD records too; a cassette of another version is WEBHOOK_CONFIG_INVALID', async () => {
    const file = cassettePath();
    vi.stubEnv('MATCH_VENUE_RECORD', file);
    const { receiver } = harness();
    const v2 = v2Signer.notification({ notificationType: 'x', notification: { id: 'n1' } });
    await receiver.fetch(post(v2.body, v2.headers));
    expect(webhookLines(readBack(file))).toHaveLength(1);

    const old = cassettePath('old.ndjson');
    writeFileSync(old, '{"kind":"cassette","format":"match-venue-cassette","version":2}\n');
    const make = () => harness({ record: old });
    expect(make).toThrow(WebhookError);
    expect(make).toThrow(/version 2; this SDK writes cassette version 1/);
  });

  it('a write that fails is one process warning, and the delivery is still answered 200', async () => {
    const file = cassettePath();
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const { receiver, events } = harness({ record: file });
    rmSync(file);
    mkdirSync(file);
    for (const id of ['n1', 'n2']) {
      const v2 = v2Signer.notification({ notificationType: 'x', notification: { id } });
      expect((await receiver.fetch(post(v2.body, v2.headers))).status).toBe(200);
    }
    expect(events).toHaveLength(2);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^match-venue webhooks: recording to .* failed \(EISDIR/);
  });
});
