import { isAllowedSource, normalizeSourceAddress, WEBHOOK_SOURCE_ADDRESSES } from 'match-venue/webhooks';
import { describe, expect, it } from 'vitest';

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
