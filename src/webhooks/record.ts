import type { CassetteJson } from '../contract/cassette.js';
import { recordEntry } from '../core/record-entry.js';
import { Recorder } from '../core/recorder.js';
import { WebhookError } from './errors.js';

// A receiver's recording (its `record` option, or MATCH_VENUE_RECORD): one `webhook` line per
// delivery it verified, in the cassette file a client of the same process may be writing too
// (core/cassette-file.ts shares one writer per file). What proved a delivery is not written: the
// SNS signature fields are dropped, and v2's signature is a header, never part of the message.

/** Writes one verified delivery: its scheme, the message, and for v2 the signing key's id. */
export type DeliveryRecorder = (scheme: 'sns' | 'v2', message: object, keyId?: string) => void;

// The SNS fields that carry or locate the signature: verification material, not the message.
const SNS_SIGNATURE_FIELDS = new Set(['Signature', 'SigningCertURL', 'SignatureVersion']);
// A (un)subscribe confirmation's URL repeats its Token, which confirms the subscription.
const URL_TOKEN = /([?&]Token=)[^&#]*/g;

function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env[name];
  return value?.trim() || undefined;
}

/** An SNS message without its signature material, and without the confirmation token in its URLs. */
function snsWithoutSignature(message: object): CassetteJson {
  const out: { [name: string]: CassetteJson } = {};
  for (const [name, value] of Object.entries(message)) {
    if (SNS_SIGNATURE_FIELDS.has(name)) continue;
    out[name] =
      typeof value === 'string' ? value.replace(URL_TOKEN, '$1[redacted]') : (value as CassetteJson);
  }
  return out;
}

/**
 * The recorder of a receiver given `file` (else MATCH_VENUE_RECORD; an empty value is off), which
 * removes `secrets` (the v2 key fetch's API key) wherever they appear, or
 * undefined when it does not record. A file that cannot be recorded to is WEBHOOK_CONFIG_INVALID at
 * creation; a write that fails later is reported once as a process warning and the delivery goes on.
 */
export function deliveryRecorder(
  file: string | undefined,
  secrets: readonly string[],
): DeliveryRecorder | undefined {
  if (file !== undefined && typeof file !== 'string')
    throw new WebhookError('WEBHOOK_CONFIG_INVALID', 'createWebhookReceiver: record must be a file path.');
  const path = file === undefined ? env('MATCH_VENUE_RECORD') : file.trim();
  if (!path) return undefined;
  const envKey = env('MATCH_VENUE_API_KEY');
  const recorder = new Recorder(path, null, {
    secrets: envKey === undefined ? secrets : [...secrets, envKey],
    warn: (message) => process.emitWarning(`match-venue webhooks: ${message}`),
    refuse: (message) => new WebhookError('WEBHOOK_CONFIG_INVALID', `createWebhookReceiver: ${message}`),
  });
  return (scheme, message, keyId) =>
    recordEntry(recorder, {
      kind: 'webhook',
      at: new Date().toISOString(),
      scheme,
      ...(keyId === undefined ? {} : { keyId }),
      message: scheme === 'sns' ? snsWithoutSignature(message) : (message as CassetteJson),
    });
}
