import type { KeyObject } from 'node:crypto';
import type { V2PublicKeyData } from '../../contract/v2-webhook.js';
import { type SignedV2Delivery, signV2Delivery, v2PublicKeyRecord } from '../../webhook-crypto/signing.js';
import type { FetchLike } from '../fetch.js';
import type { V2Notification } from '../v2-notification.js';
import { DEFAULT_KEY_ID_HEADER, DEFAULT_SIGNATURE_HEADER } from '../v2-verifier.js';
import { signerCrypto } from './node-crypto.js';

export type { SignedV2Delivery } from '../../webhook-crypto/signing.js';

/** Options of {@link createV2TestSigner}; every one has a default. */
export interface V2TestSignerOptions {
  /** Key id announced in the key-id header. Default: a random UUID. */
  keyId?: string;
  /** Reuse an EC P-256 key pair. Default: a new one. */
  keyPair?: {
    /** Signs the deliveries. */
    privateKey: KeyObject;
    /** Served as the key record. */
    publicKey: KeyObject;
  };
  /** Header the signature goes in. Default `X-Circle-Signature`. */
  signatureHeader?: string;
  /** Header the key id goes in. Default `X-Circle-Key-Id`. */
  keyIdHeader?: string;
  /** `createDate` of the served key record. Default: now. */
  createDate?: string;
}

/** Signs v2 deliveries with an ECDSA P-256 key and serves the matching public-key record. */
export interface V2TestSigner {
  /** The key id its deliveries name. */
  readonly keyId: string;
  /** The EC P-256 key pair. */
  readonly keyPair: {
    /** Signs the deliveries. */
    privateKey: KeyObject;
    /** Served as the key record. */
    publicKey: KeyObject;
  };
  /** The `data` a `GET /v2/notifications/publicKey/{keyId}` answers with. */
  readonly publicKeyRecord: V2PublicKeyData;
  /** The whole response body of that endpoint: `{ data: publicKeyRecord }`. */
  readonly publicKeyResponse: {
    /** The key record. */
    data: V2PublicKeyData;
  };
  /** Signs a body (an object is JSON-serialised first); the signature covers the returned `body`. */
  sign(body: string | Uint8Array | object): SignedV2Delivery;
  /** Builds and signs a platform envelope around `notification`. */
  notification(input: V2TestNotificationInput): SignedV2Delivery & {
    /** The envelope that was signed, as a verifier will parse it. */
    notification: V2Notification;
  };
  /**
   * A fetch standing in for the platform's key endpoint: any GET whose path ends in
   * `/publicKey/<keyId>` with a Bearer credential gets the record; other key ids 404; no
   * credential 401. `calls` records every URL and Authorization header it saw.
   */
  readonly fetch: FetchLike & {
    /** Every request it answered, in order. */
    calls: {
      /** The URL requested. */
      url: string;
      /** The Authorization header sent, or null. */
      authorization: string | null;
    }[];
  };
}

/** What {@link V2TestSigner.notification} wraps in the platform's envelope. */
export interface V2TestNotificationInput {
  /** The envelope's `notificationType`, e.g. `transfers.completed`. */
  notificationType: string;
  /** The payload. Default `{}`. */
  notification?: unknown;
  /** Default: a random UUID. */
  subscriptionId?: string;
  /** Default: a random UUID. */
  notificationId?: string;
  /** Default: now, ISO 8601. */
  timestamp?: string;
}

/** Creates a v2 signer for tests and for the simulator's v2 deliveries. */
export function createV2TestSigner(options: V2TestSignerOptions = {}): V2TestSigner {
  const { generateKeyPairSync, randomUUID } = signerCrypto('createV2TestSigner');
  const keyPair = options.keyPair ?? generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyId = options.keyId ?? randomUUID();
  const signatureHeader = options.signatureHeader ?? DEFAULT_SIGNATURE_HEADER;
  const keyIdHeader = options.keyIdHeader ?? DEFAULT_KEY_ID_HEADER;
  const publicKeyRecord: V2PublicKeyData = v2PublicKeyRecord(
    keyId,
    keyPair.publicKey,
    options.createDate ?? new Date().toISOString(),
  );

  function signBody(body: string | Uint8Array | object): SignedV2Delivery {
    const text =
      typeof body === 'string'
        ? body
        : body instanceof Uint8Array
          ? new TextDecoder().decode(body)
          : JSON.stringify(body);
    return signV2Delivery(text, { keyId, privateKey: keyPair.privateKey, signatureHeader, keyIdHeader });
  }

  const calls: { url: string; authorization: string | null }[] = [];
  const fetchKey = async (input: string, init?: RequestInit): Promise<Response> => {
    const authorization = new Headers(init?.headers).get('authorization');
    calls.push({ url: input, authorization });
    if (!authorization?.startsWith('Bearer ')) {
      return Response.json({ code: 401, message: 'Malformed authorization.' }, { status: 401 });
    }
    const path = new URL(input).pathname;
    if (path.endsWith(`/publicKey/${keyId}`)) return Response.json({ data: publicKeyRecord });
    return Response.json({ code: -1, message: 'Public key not found.' }, { status: 404 });
  };

  return {
    keyId,
    keyPair,
    publicKeyRecord,
    publicKeyResponse: { data: publicKeyRecord },
    sign: signBody,
    notification(input) {
      const notification: V2Notification = {
        subscriptionId: input.subscriptionId ?? randomUUID(),
        notificationId: input.notificationId ?? randomUUID(),
        notificationType: input.notificationType,
        notification: input.notification ?? {},
        timestamp: input.timestamp ?? new Date().toISOString(),
        version: 2,
      };
      return { ...signBody(notification), notification };
    },
    fetch: Object.assign(fetchKey, { calls }),
  };
}
