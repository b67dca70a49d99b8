import { createPublicKey, ECDH, generateKeyPairSync } from 'node:crypto';
import {
  createPublicKeyFetcher,
  createV2Verifier,
  importV2PublicKey,
  type WebhookError,
} from 'match-venue/webhooks';
import { createV2TestSigner } from 'match-venue/webhooks/testing';
import { describe, expect, it } from 'vitest';
import { codeOf } from './fixtures.js';

const BASE = 'https://api.platform.test';
const API_KEY = 'TEST_API_KEY:abc:secret-part';

function setup() {
  const signer = createV2TestSigner();
  const verifier = createV2Verifier({ baseUrl: BASE, apiKey: API_KEY, fetch: signer.fetch });
  return { signer, verifier };
}

describe('v2 signatures', () => {
  it('round-trips: a signed notification verifies and parses', async () => {
    const { signer, verifier } = setup();
    const delivery = signer.notification({
      notificationType: 'transfers.completed',
      notification: { id: 't1' },
    });
    const verified = await verifier.verify(delivery);
    expect(verified.keyId).toBe(signer.keyId);
    expect(verified.notification).toEqual(delivery.notification);
    expect(verified.notification.notificationType).toBe('transfers.completed');
  });

  it('signs with X-Circle-Signature (base64 DER) and X-Circle-Key-Id', () => {
    const { signer } = setup();
    const { headers } = signer.sign({ notificationType: 'x' });
    expect(headers['X-Circle-Key-Id']).toBe(signer.keyId);
    const der = Buffer.from(headers['X-Circle-Signature']!, 'base64');
    expect(der[0]).toBe(0x30); // an ASN.1 SEQUENCE of r and s
  });

  it('verifies the raw body as a Buffer and with lower-case node-style headers', async () => {
    const { signer, verifier } = setup();
    const { body, headers } = signer.sign('{"notificationType":"webhooks.test"}');
    const nodeHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    await expect(verifier.verify({ headers: nodeHeaders, body: Buffer.from(body) })).resolves.toMatchObject({
      notification: { notificationType: 'webhooks.test' },
    });
    await expect(verifier.verify({ headers: new Headers(headers), body })).resolves.toEqual({
      keyId: signer.keyId,
      notification: { notificationType: 'webhooks.test' },
    });
  });

  it('one changed byte in the body fails', async () => {
    const { signer, verifier } = setup();
    const { body, headers } = signer.sign({ notificationType: 'payments.completed', amount: '10.00' });
    const tampered = body.replace('10.00', '10.01');
    expect(tampered).not.toBe(body);
    expect(await codeOf(verifier.verify({ headers, body: tampered }))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('a re-serialised (parsed) body is refused as not raw', async () => {
    const { signer, verifier } = setup();
    const { body, headers } = signer.sign({ notificationType: 'x' });
    expect(await codeOf(verifier.verify({ headers, body: JSON.parse(body) }))).toBe('WEBHOOK_BODY_NOT_RAW');
  });

  it('a key id the platform does not know fails (the fetch says 404)', async () => {
    const { signer, verifier } = setup();
    const { body, headers } = signer.sign({ notificationType: 'x' });
    const wrong = { ...headers, 'X-Circle-Key-Id': '00000000-0000-4000-8000-000000000000' };
    expect(await codeOf(verifier.verify({ headers: wrong, body }))).toBe('WEBHOOK_KEY_FETCH_FAILED');
  });

  it("another known key's id fails the signature", async () => {
    const a = createV2TestSigner();
    const b = createV2TestSigner();
    const fetch = async (url: string, init?: RequestInit) =>
      url.endsWith(a.keyId) ? a.fetch(url, init) : b.fetch(url, init);
    const verifier = createV2Verifier({ baseUrl: BASE, apiKey: API_KEY, fetch });
    const { body, headers } = a.sign({ notificationType: 'x' });
    const swapped = { ...headers, 'X-Circle-Key-Id': b.keyId };
    expect(await codeOf(verifier.verify({ headers: swapped, body }))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it.each([
    ['no signature header', (h: Record<string, string>) => ({ ...h, 'X-Circle-Signature': '' })],
    [
      'a non-base64 signature',
      (h: Record<string, string>) => ({ ...h, 'X-Circle-Signature': 'not base64!' }),
    ],
    ['no key id header', (h: Record<string, string>) => ({ ...h, 'X-Circle-Key-Id': '' })],
    ['a path-traversal key id', (h: Record<string, string>) => ({ ...h, 'X-Circle-Key-Id': '../../v1/x' })],
  ])('%s is WEBHOOK_HEADER_MISSING and fetches nothing', async (_label, change) => {
    const { signer, verifier } = setup();
    const { body, headers } = signer.sign({ notificationType: 'x' });
    expect(await codeOf(verifier.verify({ headers: change(headers), body }))).toBe('WEBHOOK_HEADER_MISSING');
    expect(signer.fetch.calls).toEqual([]);
  });

  it('a garbage DER signature fails as invalid, not as a crash', async () => {
    const { signer, verifier } = setup();
    const { body, headers } = signer.sign({ notificationType: 'x' });
    const garbage = { ...headers, 'X-Circle-Signature': Buffer.from('garbage').toString('base64') };
    expect(await codeOf(verifier.verify({ headers: garbage, body }))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('a verified body that is not a notification object is WEBHOOK_BODY_INVALID', async () => {
    const { signer, verifier } = setup();
    expect(await codeOf(verifier.verify(signer.sign('[1,2]')))).toBe('WEBHOOK_BODY_INVALID');
    expect(await codeOf(verifier.verify(signer.sign({ type: 'x' })))).toBe('WEBHOOK_BODY_INVALID');
  });
});

describe('v2 public key fetching and cache', () => {
  it('fetches the key once for many deliveries, concurrent ones included, with bearer auth', async () => {
    const { signer, verifier } = setup();
    const deliveries = Array.from({ length: 5 }, (_, i) =>
      signer.notification({ notificationType: `t${i}` }),
    );
    await Promise.all(deliveries.map((d) => verifier.verify(d)));
    await verifier.verify(deliveries[0]!);
    expect(signer.fetch.calls).toEqual([
      { url: `${BASE}/v2/notifications/publicKey/${signer.keyId}`, authorization: `Bearer ${API_KEY}` },
    ]);
  });

  it('retries a failed key fetch on the next delivery', async () => {
    const signer = createV2TestSigner();
    let down = true;
    let calls = 0;
    const fetch = async (url: string, init?: RequestInit) => {
      calls += 1;
      return down ? new Response('', { status: 502 }) : signer.fetch(url, init);
    };
    const verifier = createV2Verifier({ baseUrl: BASE, apiKey: API_KEY, fetch });
    const delivery = signer.notification({ notificationType: 'x' });
    expect(await codeOf(verifier.verify(delivery))).toBe('WEBHOOK_KEY_FETCH_FAILED');
    down = false;
    await expect(verifier.verify(delivery)).resolves.toEqual({
      keyId: signer.keyId,
      notification: delivery.notification,
    });
    expect(calls).toBe(2);
  });

  it('honours configurable header names and key path', async () => {
    const signer = createV2TestSigner({ signatureHeader: 'X-Sig', keyIdHeader: 'X-Kid' });
    const verifier = createV2Verifier({
      baseUrl: `${BASE}/`,
      apiKey: API_KEY,
      fetch: signer.fetch,
      signatureHeader: 'x-sig',
      keyIdHeader: 'x-kid',
      publicKeyPath: '/v9/keys/publicKey/{keyId}',
    });
    const delivery = signer.notification({ notificationType: 'x' });
    await expect(verifier.verify(delivery)).resolves.toEqual({
      keyId: signer.keyId,
      notification: delivery.notification,
    });
    expect(signer.fetch.calls[0]?.url).toBe(`${BASE}/v9/keys/publicKey/${signer.keyId}`);
  });

  it('a getPublicKey callback replaces the endpoint and is cached too', async () => {
    const signer = createV2TestSigner();
    let calls = 0;
    const verifier = createV2Verifier({
      getPublicKey: async () => {
        calls += 1;
        return signer.publicKeyResponse;
      },
    });
    await verifier.verify(signer.notification({ notificationType: 'a' }));
    await verifier.verify(signer.notification({ notificationType: 'b' }));
    expect(calls).toBe(1);
  });

  it('key fetch errors never contain the API key', async () => {
    const fetchKey = createPublicKeyFetcher({
      baseUrl: BASE,
      apiKey: API_KEY,
      fetch: async () => new Response('', { status: 500 }),
    });
    const error = await fetchKey('k1').catch((e: unknown) => e);
    expect((error as WebhookError).code).toBe('WEBHOOK_KEY_FETCH_FAILED');
    expect((error as WebhookError).message).not.toContain('secret-part');
  });

  it('refuses to start without a base URL or API key', () => {
    const saved = { base: process.env.MATCH_VENUE_BASE_URL, key: process.env.MATCH_VENUE_API_KEY };
    delete process.env.MATCH_VENUE_BASE_URL;
    delete process.env.MATCH_VENUE_API_KEY;
    try {
      expect(() => createV2Verifier({ apiKey: API_KEY })).toThrow(/base URL/);
      expect(() => createV2Verifier({ baseUrl: BASE })).toThrow(/API key/);
    } finally {
      if (saved.base !== undefined) process.env.MATCH_VENUE_BASE_URL = saved.base;
      if (saved.key !== undefined) process.env.MATCH_VENUE_API_KEY = saved.key;
    }
  });
});

describe('importV2PublicKey', () => {
  const { signer } = setup();

  it('accepts the record or the whole response body', () => {
    expect(importV2PublicKey(signer.publicKeyResponse).id).toBe(signer.keyId);
    expect(Buffer.from(importV2PublicKey(signer.publicKeyRecord).subjectPublicKeyInfo)).toEqual(
      signer.keyPair.publicKey.export({ type: 'spki', format: 'der' }),
    );
  });

  it('expands a compressed P-256 point to the uncompressed key node:crypto reads', () => {
    const der = signer.keyPair.publicKey.export({ type: 'spki', format: 'der' });
    const point = ECDH.convertKey(
      der.subarray(-65),
      'prime256v1',
      undefined,
      undefined,
      'compressed',
    ) as Buffer;
    // The same algorithm identifier, then BIT STRING 0x03 0x22 0x00 || the 33-byte point.
    const spki = Buffer.concat([
      Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex'),
      point,
    ]);
    expect(createPublicKey({ key: spki, format: 'der', type: 'spki' }).equals(signer.keyPair.publicKey)).toBe(
      true,
    );
    const record = { ...signer.publicKeyRecord, publicKey: spki.toString('base64') };
    expect(Buffer.from(importV2PublicKey(record).subjectPublicKeyInfo)).toEqual(der);
  });

  it('rejects a point off the P-256 curve', () => {
    const der = Buffer.from(signer.keyPair.publicKey.export({ type: 'spki', format: 'der' }));
    der[der.length - 1]! ^= 1;
    const record = { ...signer.publicKeyRecord, publicKey: der.toString('base64') };
    expect(() => importV2PublicKey(record)).toThrow(
      expect.objectContaining({
        code: 'WEBHOOK_KEY_INVALID',
        message: expect.stringContaining('P-256 curve'),
      }),
    );
  });

  it('rejects an unknown algorithm', () => {
    expect(() => importV2PublicKey({ ...signer.publicKeyRecord, algorithm: 'RSA_SHA_256' })).toThrow(
      expect.objectContaining({ code: 'WEBHOOK_KEY_ALGORITHM_UNSUPPORTED' }),
    );
  });

  it('rejects a key that is not P-256', () => {
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey;
    const record = {
      ...signer.publicKeyRecord,
      publicKey: p384.export({ type: 'spki', format: 'der' }).toString('base64'),
    };
    expect(() => importV2PublicKey(record)).toThrow(expect.objectContaining({ code: 'WEBHOOK_KEY_INVALID' }));
  });

  it('rejects a malformed key or record', () => {
    expect(() => importV2PublicKey({ ...signer.publicKeyRecord, publicKey: 'AAAA' })).toThrow(
      expect.objectContaining({ code: 'WEBHOOK_KEY_INVALID' }),
    );
    expect(() => importV2PublicKey({ data: null })).toThrow(
      expect.objectContaining({ code: 'WEBHOOK_KEY_INVALID' }),
    );
  });

  it('a response for another key id is refused', async () => {
    const other = createV2TestSigner();
    const verifier = createV2Verifier({
      baseUrl: BASE,
      apiKey: API_KEY,
      fetch: async () => Response.json(other.publicKeyResponse),
    });
    expect(await codeOf(verifier.verify(signer.notification({ notificationType: 'x' })))).toBe(
      'WEBHOOK_KEY_INVALID',
    );
  });
});
