import { snsUrlPolicy } from 'match-venue/webhooks';
import { isSnsUrl } from '../../src/webhooks/sns-url-policy.js';
import { loopbackUrlPolicy } from 'match-venue/webhooks/testing';
import { describe, expect, it } from 'vitest';

describe('snsUrlPolicy (production rule)', () => {
  it.each([
    'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem',
    'https://sns.eu-central-1.amazonaws.com/a/b/c.pem',
    'https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-abc.pem',
    'https://sns.us-gov-west-1.amazonaws.com/x.pem',
    'https://sns.us-east-1.amazonaws.com:443/x.pem',
  ])('accepts the certificate URL %s', (url) => {
    expect(isSnsUrl(url, 'certificate')).toBe(true);
  });

  it.each([
    'https://sns.us-east-1.amazonaws.com/x.pem.txt',
    'https://sns.us-east-1.amazonaws.com/',
    'https://sns..amazonaws.com/x.pem',
    'https://sns.us_east_1.amazonaws.com/x.pem',
    'https://sns.us-east-1.amazonaws.cn/x.pem',
    'https://xsns.us-east-1.amazonaws.com/x.pem',
    'https://sns.us-east-1.amazonaws.com.cn.evil.example/x.pem',
    'ftp://sns.us-east-1.amazonaws.com/x.pem',
    'file:///sns.us-east-1.amazonaws.com/x.pem',
  ])('refuses the certificate URL %s', (url) => {
    expect(isSnsUrl(url, 'certificate')).toBe(false);
  });

  it('accepts a SubscribeURL on an SNS host with any path, but not a certificate URL without .pem', () => {
    const url = 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=t';
    expect(isSnsUrl(url, 'subscribe')).toBe(true);
    expect(isSnsUrl(url, 'certificate')).toBe(false);
    expect(snsUrlPolicy(new URL(url), 'subscribe')).toBe(true);
  });
});

describe('loopbackUrlPolicy (simulator testing only)', () => {
  it.each([
    ['http://127.0.0.1:4010/_sim/sns/cert.pem', true],
    ['http://localhost:4010/confirm?x=1', true],
    ['http://[::1]:4010/cert.pem', true],
    ['http://user@127.0.0.1:4010/cert.pem', false],
    ['http://127.0.0.1.evil.example/cert.pem', false],
    ['http://10.0.0.1/cert.pem', false],
    ['https://sns.us-east-1.amazonaws.com/x.pem', false],
  ])('%s -> %s', (url, expected) => {
    expect(loopbackUrlPolicy(new URL(url), 'certificate')).toBe(expected);
  });
});
