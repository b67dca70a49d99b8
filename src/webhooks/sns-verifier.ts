import { snsCanonicalString } from '../webhook-crypto/sns-canonical.js';
import { decodeBase64 } from './base64.js';
import { WebhookError } from './errors.js';
import { type FetchLike, globalFetch } from './fetch.js';
import { signatureBackend } from './signature-backend.js';
import {
  assertCertificateCurrent,
  createCertificateLoader,
  type LoadedCertificate,
  loadCertificate,
  parseSigningCertificate,
} from './sns-certificate.js';
import { parseSnsMessage, type SnsMessage } from './sns-message.js';
import { acceptSnsUrl, type SnsUrlPolicy, snsUrlPolicy } from './sns-url-policy.js';

/** Which TopicArns to accept: an exact ARN, a pattern, or a predicate. */
export type TopicArnMatcher = string | RegExp | ((topicArn: string) => boolean);

/** Options of {@link createSnsVerifier}; the defaults suit production. */
export interface SnsVerifierOptions {
  /** Fetches signing certificates. Default: the global fetch. */
  fetch?: FetchLike;
  /** Clock for the certificate validity check, in epoch ms. Default: `Date.now`. */
  now?: () => number;
  /**
   * Skip the certificate validity-period check. Only for archived test data signed with a since
   * expired certificate; never in production.
   */
  ignoreCertificateExpiry?: boolean;
  /** Accept only messages whose TopicArn matches; default: any topic. */
  topicArn?: TopicArnMatcher;
  /**
   * Which SigningCertURL / SubscribeURL values may be fetched. Default {@link snsUrlPolicy} (https,
   * SNS host, .pem). Production keeps the default; `loopbackUrlPolicy` exists for the simulator.
   */
  urlPolicy?: SnsUrlPolicy;
  /**
   * A pinned signing certificate (PEM). When set, no certificate is fetched and every message must be
   * signed by this certificate's key; for local testing against the simulator.
   */
  trustedCertificate?: string;
  /** How many certificate URLs to keep cached (default 64). */
  maxCachedCertificates?: number;
}

/** Verifies SNS HTTP(S) messages; keep one per process so certificates stay cached. */
export interface SnsVerifier {
  /**
   * Parses and verifies a raw SNS body; resolves to the typed message or rejects with a
   * {@link WebhookError}. Does not confirm subscriptions (see `confirmSnsSubscription`).
   */
  verify(rawBody: unknown): Promise<SnsMessage>;
}

const DIGEST = { '1': 'sha1', '2': 'sha256' } as const;

function topicMatches(matcher: TopicArnMatcher, topicArn: string): boolean {
  if (typeof matcher === 'string') return matcher === topicArn;
  if (matcher instanceof RegExp) {
    matcher.lastIndex = 0;
    return matcher.test(topicArn);
  }
  return matcher(topicArn);
}

/**
 * Creates a verifier for SNS messages (notification API v1). Checks, cheapest first: shape, the
 * TopicArn pattern, the SigningCertURL (and for confirmations the SubscribeURL) against the URL
 * policy, then fetches the certificate (cached per URL), checks its validity period against `now`,
 * and verifies the RSA signature (SignatureVersion 1: SHA1, 2: SHA256) over the canonical string.
 * The certificate chain is not validated: as in AWS's own validators, trust comes from fetching
 * it over https from an SNS host. Signatures are checked with node:crypto where the runtime has it
 * and with WebCrypto elsewhere (edge runtimes).
 */
export function createSnsVerifier(options: SnsVerifierOptions = {}): SnsVerifier {
  const policy = options.urlPolicy ?? snsUrlPolicy;
  const now = options.now ?? Date.now;
  const pinned = options.trustedCertificate ? parseSigningCertificate(options.trustedCertificate) : undefined;
  const backend = signatureBackend();
  const load = createCertificateLoader(options.fetch ?? globalFetch, backend, options.maxCachedCertificates);
  let pinnedLoad: Promise<LoadedCertificate> | undefined;

  return {
    async verify(rawBody) {
      const message = parseSnsMessage(rawBody);
      if (options.topicArn !== undefined && !topicMatches(options.topicArn, message.TopicArn)) {
        throw new WebhookError('WEBHOOK_TOPIC_REJECTED', `SNS TopicArn ${message.TopicArn} is not accepted.`);
      }
      if (message.Type !== 'Notification' && !acceptSnsUrl(message.SubscribeURL, 'subscribe', policy)) {
        throw new WebhookError(
          'WEBHOOK_SUBSCRIBE_URL_REJECTED',
          'SNS SubscribeURL is not an https URL on an SNS host.',
        );
      }
      let loaded: LoadedCertificate;
      if (pinned) {
        pinnedLoad ??= loadCertificate(pinned, backend);
        loaded = await pinnedLoad;
      } else {
        const certUrl = acceptSnsUrl(message.SigningCertURL, 'certificate', policy);
        if (!certUrl) {
          throw new WebhookError(
            'WEBHOOK_CERT_URL_REJECTED',
            `SNS SigningCertURL ${JSON.stringify(message.SigningCertURL)} is not an https .pem URL on an SNS host.`,
          );
        }
        loaded = await load(certUrl.href);
      }
      if (!options.ignoreCertificateExpiry) assertCertificateCurrent(loaded.certificate, now());
      const signature = decodeBase64(message.Signature);
      const canonical = new TextEncoder().encode(snsCanonicalString(message));
      if (!signature || !(await loaded.check(DIGEST[message.SignatureVersion], signature, canonical))) {
        throw new WebhookError('WEBHOOK_SIGNATURE_INVALID', 'SNS message signature does not verify.');
      }
      return message;
    },
  };
}
