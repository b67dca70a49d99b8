/**
 * A bounded corpus of SNS forgeries made from signed messages without the signing key, and a count
 * of how many a verifier accepts. Two families:
 *
 * - boundary shifts: the signed string is `key\nvalue\n` pairs, so every other way of reading a
 *   message's canonical string back into fields (under each message type's key list) yields a
 *   different message whose canonical string, and so whose signature, is byte-identical. The
 *   issue's forgery (Subject folded into MessageId) is one of these.
 * - line-break injections: CR, LF or CRLF put at the start, middle and end of every field except
 *   Message (the only field SNS lets span lines). For unsigned fields the signature still verifies.
 *
 * Sources: the genuine AWS fixtures, plus messages signed by the test signer whose content is
 * legitimate but key-shaped (a Message holding `\nMessageId\n...`, a Subject equal to a key name),
 * the cases where a careless verifier admits the most readings.
 *
 * Run: `npx tsx test/webhooks/sns-forgery-corpus.ts [--list]` prints the counts (with `--list`, every
 * accepted forgery; exit 1 if any is accepted);
 * test/webhooks/sns-forgery.test.ts asserts the same in the suite.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  createSnsVerifier,
  type SnsMessage,
  type SnsNotification,
  type SnsVerifier,
} from 'match-venue/webhooks';
import { createSnsTestSigner } from 'match-venue/webhooks/testing';
import { snsCanonicalString } from '../../src/webhook-crypto/sns-canonical.js';

/** The signed keys per message type, in signing order (AWS's documented lists). */
const KEY_LISTS: Readonly<Record<SnsMessage['Type'], readonly string[]>> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: [
    'Message',
    'MessageId',
    'SubscribeURL',
    'Timestamp',
    'Token',
    'TopicArn',
    'Type',
  ],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

const LINE_BREAKS = ['\n', '\r\n', '\r'] as const;

export interface Forgery {
  family: 'boundary-shift' | 'line-break';
  source: string;
  label: string;
  body: string;
}

export interface CorpusSource {
  name: string;
  message: SnsMessage;
  verifier: SnsVerifier;
}

/**
 * Every reading of `canonical` as `key\nvalue\n` pairs drawn from `keys` in order, each at most once.
 * A value spans one or more lines, so a key name on a value line is where a reading can branch.
 */
export function readings(canonical: string, keys: readonly string[]): Record<string, string>[] {
  if (!canonical.endsWith('\n')) return [];
  const lines = canonical.slice(0, -1).split('\n');
  const out: Record<string, string>[] = [];
  const walk = (at: number, firstKey: number, fields: Record<string, string>): void => {
    for (let k = firstKey; k < keys.length; k++) {
      const key = keys[k]!;
      if (lines[at] !== key) continue;
      for (let end = at + 2; end <= lines.length; end++) {
        const next = { ...fields, [key]: lines.slice(at + 1, end).join('\n') };
        if (end === lines.length) out.push(next);
        else walk(end, k + 1, next);
      }
    }
  };
  walk(0, 0, {});
  return out;
}

function signedKeysOf(message: SnsMessage): readonly string[] {
  return KEY_LISTS[message.Type];
}

/** Every boundary-shift forgery of `message`: re-readings under all three key lists, minus itself. */
export function boundaryShifts(source: string, message: SnsMessage): Forgery[] {
  const canonical = snsCanonicalString(message);
  const fields = message as unknown as Record<string, string>;
  const unsigned = Object.fromEntries(
    Object.entries(fields).filter(([key]) => !signedKeysOf(message).includes(key)),
  );
  const original = JSON.stringify(
    Object.fromEntries(signedKeysOf(message).flatMap((k) => (k in fields ? [[k, fields[k]]] : []))),
  );
  const seen = new Set<string>([original]);
  const out: Forgery[] = [];
  for (const keys of new Set(Object.values(KEY_LISTS))) {
    for (const reading of readings(canonical, keys)) {
      const id = JSON.stringify(reading);
      if (seen.has(id)) continue;
      seen.add(id);
      const label = Object.entries(reading)
        .filter(([key, value]) => fields[key] !== value)
        .map(([key]) => key)
        .concat(
          Object.keys(fields)
            .filter((k) => keys.includes(k) && !(k in reading))
            .map((k) => `-${k}`),
        )
        .join(',');
      out.push({
        family: 'boundary-shift',
        source,
        label: `reread (${label})`,
        body: JSON.stringify({ ...unsigned, ...reading }),
      });
    }
  }
  return out;
}

/** CR, LF and CRLF at the start, middle and end of every string field except Message. */
export function lineBreakInjections(source: string, message: SnsMessage): Forgery[] {
  const out: Forgery[] = [];
  for (const [field, value] of Object.entries(message)) {
    if (field === 'Message' || typeof value !== 'string') continue;
    const middle = Math.floor(value.length / 2);
    for (const lineBreak of LINE_BREAKS) {
      const places = {
        start: lineBreak + value,
        middle: value.slice(0, middle) + lineBreak + value.slice(middle),
        end: value + lineBreak,
      };
      for (const [where, injected] of Object.entries(places)) {
        out.push({
          family: 'line-break',
          source,
          label: `${field} ${JSON.stringify(lineBreak)} at ${where}`,
          body: JSON.stringify({ ...message, [field]: injected }),
        });
      }
    }
  }
  return out;
}

/** The genuine AWS notifications (verified with expiry ignored) and key-shaped self-signed messages. */
export function corpusSources(): CorpusSource[] {
  const fixture = JSON.parse(
    readFileSync(new URL('../fixtures/sns/aws-sns-notifications.json', import.meta.url), 'utf8'),
  ) as { signingCertificatePem: string; messages: SnsNotification[] };
  const certUrl = fixture.messages[0]!.SigningCertURL;
  const genuine = createSnsVerifier({
    ignoreCertificateExpiry: true,
    fetch: async (url) =>
      url === certUrl ? new Response(fixture.signingCertificatePem) : new Response('', { status: 404 }),
  });
  const sources: CorpusSource[] = fixture.messages.map((message, i) => ({
    name: `genuine[${i}] v${message.SignatureVersion}${message.Subject === undefined ? '' : ' +Subject'}`,
    message,
    verifier: genuine,
  }));

  const signer = createSnsTestSigner();
  const selfSigned = createSnsVerifier({ fetch: signer.fetch });
  const other = '0f0e0d0c-0b0a-4908-8706-050403020100';
  const at = '2024-05-01T12:00:00.000Z';
  const keyShaped: [string, SnsMessage][] = [
    ['Message holds \\nMessageId\\n<uuid>', signer.notification({ Message: `hello\nMessageId\n${other}` })],
    [
      'Message holds \\nMessageId\\n<uuid>\\nSubject\\n<s>, with Subject',
      signer.notification({ Message: `hi\nMessageId\n${other}\nSubject\nx`, Subject: 'real' }),
    ],
    ['Subject equal to the key "Timestamp"', signer.notification({ Message: 'm', Subject: 'Timestamp' })],
    ['Subject equal to the key "Type"', signer.notification({ Message: 'm', Subject: 'Type' })],
    ['Message ending in \\nType\\nNotification', signer.notification({ Message: 'x\nType\nNotification' })],
    ['SubscriptionConfirmation (multi-line Message)', signer.subscriptionConfirmation({ Timestamp: at })],
    [
      'SubscriptionConfirmation, Message holds \\nSubscribeURL\\n',
      signer.subscriptionConfirmation({ Message: 'a\nSubscribeURL\nb', Timestamp: at }),
    ],
    ['UnsubscribeConfirmation', signer.unsubscribeConfirmation({ Timestamp: at })],
  ];
  for (const [name, message] of keyShaped) {
    sources.push({ name: `self-signed: ${name}`, message, verifier: selfSigned });
  }
  return sources;
}

export interface CorpusResult {
  sources: number;
  /** Sources whose own, unmodified body verifies (all must). */
  genuineAccepted: number;
  tried: Record<Forgery['family'], number>;
  accepted: Forgery[];
}

/** Verifies every source and every forgery of it; a forgery that verifies counts as accepted. */
export async function runCorpus(sources = corpusSources()): Promise<CorpusResult> {
  const result: CorpusResult = {
    sources: sources.length,
    genuineAccepted: 0,
    tried: { 'boundary-shift': 0, 'line-break': 0 },
    accepted: [],
  };
  for (const { name, message, verifier } of sources) {
    if (
      await verifier.verify(JSON.stringify(message)).then(
        () => true,
        () => false,
      )
    )
      result.genuineAccepted += 1;
    for (const forgery of [...boundaryShifts(name, message), ...lineBreakInjections(name, message)]) {
      result.tried[forgery.family] += 1;
      const ok = await verifier.verify(forgery.body).then(
        () => true,
        () => false,
      );
      if (ok) result.accepted.push(forgery);
    }
  }
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runCorpus();
  const count = (family: Forgery['family']) => result.accepted.filter((f) => f.family === family).length;
  console.log(`sources: ${result.sources} (unmodified and verifying: ${result.genuineAccepted})`);
  for (const family of ['boundary-shift', 'line-break'] as const) {
    console.log(`${family}: ${count(family)} accepted of ${result.tried[family]}`);
  }
  for (const forgery of process.argv.includes('--list') ? result.accepted : []) {
    console.log(`  accepted: [${forgery.family}] ${forgery.source}: ${forgery.label}`);
  }
  process.exitCode = result.accepted.length === 0 && result.genuineAccepted === result.sources ? 0 : 1;
}
