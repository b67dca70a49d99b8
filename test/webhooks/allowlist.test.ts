import { isIPv6 } from 'node:net';
import fc from 'fast-check';
import { isAllowedSource, WEBHOOK_SOURCE_ADDRESSES } from 'match-venue/webhooks';
import { normalizeSourceAddress } from '../../src/webhooks/allowlist.js';
import { describe, expect, it } from 'vitest';
import { ipv6Groups } from '../../src/webhooks/allowlist.js';

const WALLET = ['54.243.112.156', '100.24.191.35', '54.165.52.248', '54.87.106.46'];
const PAYMENTS = ['35.169.154.32', '3.90.127.28', '3.230.111.7', '54.88.227.75'];

describe('webhook source allowlists', () => {
  it('holds the documented addresses per product', () => {
    expect(WEBHOOK_SOURCE_ADDRESSES).toEqual({
      wallet: WALLET,
      contract: WALLET,
      transfer: WALLET,
      'payments-network': PAYMENTS,
      fx: PAYMENTS,
    });
  });

  it.each(WALLET)('%s is a wallet/contract/transfer source, not a payments-network/FX one', (ip) => {
    expect(isAllowedSource(ip, 'wallet')).toBe(true);
    expect(isAllowedSource(ip, 'contract')).toBe(true);
    expect(isAllowedSource(ip, 'transfer')).toBe(true);
    expect(isAllowedSource(ip, 'payments-network')).toBe(false);
    expect(isAllowedSource(ip, 'fx')).toBe(false);
  });

  it.each(PAYMENTS)('%s is a payments-network/FX source only', (ip) => {
    expect(isAllowedSource(ip, 'payments-network')).toBe(true);
    expect(isAllowedSource(ip, 'fx')).toBe(true);
    expect(isAllowedSource(ip, 'wallet')).toBe(false);
  });

  it('accepts IPv4-mapped IPv6 forms as a dual-stack socket reports them', () => {
    expect(isAllowedSource('::ffff:54.243.112.156', 'wallet')).toBe(true);
    expect(isAllowedSource('::FFFF:3.90.127.28', 'fx')).toBe(true);
    expect(isAllowedSource('0:0:0:0:0:ffff:54.87.106.46', 'contract')).toBe(true);
    expect(isAllowedSource('::ffff:36f3:709c', 'wallet')).toBe(true); // 54.243.112.156 in hex
    expect(isAllowedSource('[::ffff:54.243.112.156]', 'wallet')).toBe(true);
  });

  it('refuses lookalikes and non-mapped IPv6', () => {
    expect(isAllowedSource('54.243.112.15', 'wallet')).toBe(false);
    expect(isAllowedSource('54.243.112.1566', 'wallet')).toBe(false);
    expect(isAllowedSource('::ffff:0:54.243.112.156', 'wallet')).toBe(false);
    expect(isAllowedSource('1::ffff:54.243.112.156', 'wallet')).toBe(false);
    expect(isAllowedSource('ffff:54.243.112.156', 'wallet')).toBe(false);
    expect(isAllowedSource('::1', 'wallet')).toBe(false);
    expect(isAllowedSource('', 'wallet')).toBe(false);
  });

  it('normalizeSourceAddress leaves non-mapped addresses alone', () => {
    expect(normalizeSourceAddress(' 10.0.0.1 ')).toBe('10.0.0.1');
    expect(normalizeSourceAddress('2001:DB8::1')).toBe('2001:db8::1');
    expect(normalizeSourceAddress('::ffff:10.0.0.1')).toBe('10.0.0.1');
  });
});

// The allowlist parses IPv6 itself (edge runtimes have no node:net); node's isIPv6 is the oracle.
describe('IPv6 parsing without node:net', () => {
  // Mostly valid groups and empty pieces (which make `::`), some that break an address.
  const piece = fc.oneof(
    { arbitrary: fc.constantFrom('0', '1', 'ffff', 'abcd', '0db8'), weight: 12 },
    { arbitrary: fc.constant(''), weight: 3 },
    { arbitrary: fc.constantFrom('1.2.3.4', '255.255.255.255'), weight: 1 },
    {
      arbitrary: fc.constantFrom('12345', 'g', '.', ':', '256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4.5'),
      weight: 1,
    },
  );

  it('accepts exactly what node:net accepts', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 10 }), (parts) => {
        const text = parts.join(':');
        expect(ipv6Groups(text) !== undefined, text).toBe(isIPv6(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('expands every form to the same eight groups', () => {
    const groups = [0x2001, 0xdb8, 0, 0, 0, 0xffff, 0x36f3, 0x709c];
    for (const form of [
      '2001:db8::ffff:36f3:709c',
      '2001:db8:0:0:0:ffff:54.243.112.156',
      '2001:0db8:0000::ffff:36f3:709c',
    ]) {
      expect(ipv6Groups(form), form).toEqual(groups);
    }
    expect(ipv6Groups('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('1:2:3:4:5:6:7::')).toEqual([1, 2, 3, 4, 5, 6, 7, 0]);
  });
});
