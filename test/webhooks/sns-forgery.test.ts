import { snsCanonicalString } from '../../src/webhook-crypto/sns-canonical.js';
import { describe, expect, it } from 'vitest';
import { snsFixture } from './fixtures.js';
import { boundaryShifts, readings, runCorpus } from './sns-forgery-corpus.js';

const NOTIFICATION_KEYS = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'];

describe('SNS forgery corpus', () => {
  it('re-reads a canonical string every way, including the issue forgery', () => {
    const genuine = snsFixture.messages[2]!;
    const all = readings(snsCanonicalString(genuine), NOTIFICATION_KEYS);
    expect(all).toContainEqual({
      Message: genuine.Message,
      MessageId: `${genuine.MessageId}\nSubject\n${genuine.Subject}`,
      Timestamp: genuine.Timestamp,
      TopicArn: genuine.TopicArn,
      Type: 'Notification',
    });
    // Five key lines after Message, each a boundary or not: 2^5 readings under this list.
    expect(all).toHaveLength(32);
    expect(boundaryShifts('genuine[2]', genuine).map((f) => f.label)).toContain(
      'reread (MessageId,-Subject)',
    );
  });

  it('no forgery is accepted, and every source message itself verifies', async () => {
    const result = await runCorpus();
    expect(result.sources).toBe(12);
    expect(result.genuineAccepted).toBe(12);
    expect(result.tried).toEqual({ 'boundary-shift': 471, 'line-break': 936 });
    expect(result.accepted.map((f) => `[${f.family}] ${f.source}: ${f.label}`)).toEqual([]);
  });
});
