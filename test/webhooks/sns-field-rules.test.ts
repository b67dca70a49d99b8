import { createSnsVerifier, type SnsMessage, type SnsNotification, WebhookError } from 'match-venue/webhooks';
import { createSnsTestSigner } from 'match-venue/webhooks/testing';
import { snsCanonicalString } from '../../src/webhook-crypto/sns-canonical.js';
import { describe, expect, it } from 'vitest';
import { certificateServer, genuineCertUrl, rawBody, snsFixture } from './fixtures.js';

const messages = snsFixture.messages;
const withSubject = messages.filter((m) => m.Subject !== undefined);
const signer = createSnsTestSigner();

function genuineVerifier() {
  const fetch = certificateServer(genuineCertUrl, snsFixture.signingCertificatePem);
  return { fetch, sns: createSnsVerifier({ fetch, ignoreCertificateExpiry: true }) };
}

/** The WebhookError a verification rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<WebhookError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof WebhookError)) throw outcome.error;
  return outcome.error;
}

/** The forgery: Subject dropped and folded into MessageId, signature kept. */
function foldSubjectIntoMessageId(genuine: SnsNotification): SnsNotification {
  const { Subject, ...rest } = genuine;
  return { ...rest, MessageId: `${genuine.MessageId}\nSubject\n${Subject}` };
}

describe('the forgery from the issue (Subject folded into MessageId)', () => {
  it.each(withSubject.map((m) => [m.SignatureVersion, m] as const))(
    'has the genuine canonical string but is refused (SignatureVersion %s)',
    async (_version, genuine) => {
      const forged = foldSubjectIntoMessageId(genuine);
      // It is the real attack: the signed bytes are identical, so the signature alone cannot tell.
      expect(snsCanonicalString(forged)).toBe(snsCanonicalString(genuine));
      const { sns, fetch } = genuineVerifier();
      const error = await rejection(sns.verify(rawBody(forged)));
      expect(error.code).toBe('WEBHOOK_BODY_INVALID');
      expect(error.message).toBe(
        'SNS Notification field "MessageId" contains a line break or control character; SNS never sends ' +
          'one, and in a signed field it could move a field boundary of the signed string.',
      );
      // Refused while parsing, before any certificate is fetched.
      expect(fetch.calls).toEqual([]);
    },
  );

  it('the genuine messages it is made from still verify', async () => {
    const { sns } = genuineVerifier();
    for (const genuine of withSubject) await expect(sns.verify(rawBody(genuine))).resolves.toEqual(genuine);
  });
});

describe('a line break or control character in a single-line field', () => {
  const notificationFields = [
    'MessageId',
    'Subject',
    'Timestamp',
    'TopicArn',
    'SignatureVersion',
    'Signature',
    'SigningCertURL',
    'UnsubscribeURL',
  ] as const;

  it.each(
    notificationFields.flatMap((field) => [
      [field, 'LF at the end', (v: string) => `${v}\n`],
      [field, 'CR in the middle', (v: string) => `${v.slice(0, 5)}\r${v.slice(5)}`],
    ]),
  )('%s (%s) is refused as WEBHOOK_BODY_INVALID naming the field', async (field, _where, inject) => {
    const genuine = messages[2]!;
    const { sns, fetch } = genuineVerifier();
    const body = rawBody({ ...genuine, [field]: inject(genuine[field]!) });
    const error = await rejection(sns.verify(body));
    expect(error.code).toBe('WEBHOOK_BODY_INVALID');
    expect(error.message).toMatch(
      new RegExp(`^SNS Notification field "${field}" contains a line break or control character;`),
    );
    expect(fetch.calls).toEqual([]);
  });

  it('a Type with a line break is no known Type (checked first: the Type picks the field list)', async () => {
    const { sns } = genuineVerifier();
    const error = await rejection(sns.verify(rawBody({ ...messages[2]!, Type: 'Notification\n' })));
    expect(error.code).toBe('WEBHOOK_BODY_INVALID');
    expect(error.message).toBe('Unknown SNS message Type "Notification\\n".');
  });

  it('a tab or a BEL in the Subject is refused (AWS allows no control characters there)', async () => {
    const { sns } = genuineVerifier();
    for (const Subject of ['Hello\tworld', 'Hello\u0007world', 'Hello\u007fworld']) {
      const error = await rejection(sns.verify(rawBody({ ...messages[2]!, Subject })));
      expect(error.code).toBe('WEBHOOK_BODY_INVALID');
      expect(error.message).toMatch(/^SNS Notification field "Subject" contains a line break/);
    }
  });

  const confirmations = [
    ['SubscriptionConfirmation', signer.subscriptionConfirmation()],
    ['UnsubscribeConfirmation', signer.unsubscribeConfirmation()],
  ] as const;

  it.each(
    confirmations.flatMap(([type, message]) =>
      (['Token', 'SubscribeURL', 'MessageId', 'TopicArn'] as const).map(
        (field) => [type, field, message] as [string, typeof field, SnsMessage],
      ),
    ),
  )('%s: a line break in %s is refused', async (type, field, message) => {
    const sns = createSnsVerifier({ fetch: signer.fetch });
    // The unmodified message verifies (its Message spans two lines: that is allowed).
    expect(message.Message).toContain('\n');
    await expect(sns.verify(rawBody(message))).resolves.toEqual(message);
    const error = await rejection(
      sns.verify(
        rawBody({ ...message, [field]: `${(message as unknown as Record<string, string>)[field]}\n` }),
      ),
    );
    expect(error.code).toBe('WEBHOOK_BODY_INVALID');
    expect(error.message).toMatch(new RegExp(`^SNS ${type} field "${field}" contains a line break`));
  });

  it('a confirmation whose Message holds "\\nMessageId\\n<uuid>" cannot be re-read with another Message', async () => {
    const other = '0f0e0d0c-0b0a-4908-8706-050403020100';
    const message = signer.subscriptionConfirmation({ Message: `confirm\nMessageId\n${other}` });
    // Re-read: Message "confirm", MessageId "<other>\nMessageId\n<real>": the same signed bytes.
    const forged = { ...message, Message: 'confirm', MessageId: `${other}\nMessageId\n${message.MessageId}` };
    expect(snsCanonicalString(forged)).toBe(snsCanonicalString(message));
    const sns = createSnsVerifier({ fetch: signer.fetch });
    await expect(sns.verify(rawBody(message))).resolves.toEqual(message);
    const error = await rejection(sns.verify(rawBody(forged)));
    expect(error.code).toBe('WEBHOOK_BODY_INVALID');
    expect(error.message).toMatch(/^SNS SubscriptionConfirmation field "MessageId" contains a line break/);
  });

  it('a line break in the Message is allowed and still signature-checked', async () => {
    const sns = createSnsVerifier({ fetch: signer.fetch });
    const message = signer.notification({ Message: 'line one\nMessageId\nline three', Subject: 'multi' });
    await expect(sns.verify(rawBody(message))).resolves.toEqual(message);
    const error = await rejection(sns.verify(rawBody({ ...message, Message: 'line one\nline three' })));
    expect(error.code).toBe('WEBHOOK_SIGNATURE_INVALID');
  });
});

describe('formats SNS guarantees', () => {
  it.each([
    ['MessageId', 'not-a-uuid', 'is not a UUID.'],
    ['MessageId', '792cda85518f5dd3916381d851212f3a', 'is not a UUID.'],
    ['MessageId', '{792cda85-518f-5dd3-9163-81d851212f3a}', 'is not a UUID.'],
    ['Timestamp', '2022-07-28 21:23:58.317Z', 'is not an ISO 8601 UTC time (YYYY-MM-DDThh:mm:ss[.sss]Z).'],
    [
      'Timestamp',
      '2022-07-28T21:23:58.317+01:00',
      'is not an ISO 8601 UTC time (YYYY-MM-DDThh:mm:ss[.sss]Z).',
    ],
    ['Timestamp', '2022-02-30T21:23:58.317Z', 'is not an ISO 8601 UTC time (YYYY-MM-DDThh:mm:ss[.sss]Z).'],
    ['Timestamp', '2022-07-28T24:00:00.000Z', 'is not an ISO 8601 UTC time (YYYY-MM-DDThh:mm:ss[.sss]Z).'],
    ['Timestamp', '1659043438317', 'is not an ISO 8601 UTC time (YYYY-MM-DDThh:mm:ss[.sss]Z).'],
    [
      'TopicArn',
      'arn:aws:sqs:us-east-2:295079676684:queue',
      'is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>).',
    ],
    [
      'TopicArn',
      'arn:aws:sns:us-east-2:29507967668:topic',
      'is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>).',
    ],
    [
      'TopicArn',
      'arn:aws:sns:us-east-2:295079676684:my topic',
      'is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>).',
    ],
    [
      'TopicArn',
      'arn:aws:sns:us-east-2:295079676684:',
      'is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>).',
    ],
  ] as const)('%s %j is refused before any fetch', async (field, value, rule) => {
    const { sns, fetch } = genuineVerifier();
    const error = await rejection(sns.verify(rawBody({ ...messages[0]!, [field]: value })));
    expect(error.code).toBe('WEBHOOK_BODY_INVALID');
    expect(error.message).toBe(`SNS Notification field "${field}" ${rule}`);
    expect(fetch.calls).toEqual([]);
  });

  it('a non-string UnsubscribeURL is refused', async () => {
    const { sns } = genuineVerifier();
    const error = await rejection(sns.verify(rawBody({ ...messages[0]!, UnsubscribeURL: 7 })));
    expect(error.code).toBe('WEBHOOK_BODY_INVALID');
    expect(error.message).toBe('SNS Notification field "UnsubscribeURL" is not a string.');
  });

  it.each([
    ['an uppercase UUID', { MessageId: 'ABCDEF01-2345-4678-89AB-CDEF01234567' }],
    ['a Timestamp without fraction', { Timestamp: '2024-02-29T23:59:59Z' }],
    ['a Timestamp with microseconds', { Timestamp: '2024-05-01T12:00:00.123456Z' }],
    ['a FIFO topic', { TopicArn: 'arn:aws:sns:eu-west-1:123456789012:orders.fifo' }],
    ['the China partition', { TopicArn: 'arn:aws-cn:sns:cn-north-1:123456789012:t_1' }],
    ['GovCloud', { TopicArn: 'arn:aws-us-gov:sns:us-gov-west-1:123456789012:T-2' }],
    ['a 256-character topic name', { TopicArn: `arn:aws:sns:us-east-1:123456789012:${'a'.repeat(256)}` }],
  ])('%s is accepted', async (_label, fields) => {
    const sns = createSnsVerifier({ fetch: signer.fetch });
    const message = signer.notification({ Message: '{"ok":true}', ...fields });
    await expect(sns.verify(rawBody(message))).resolves.toEqual(message);
  });
});
