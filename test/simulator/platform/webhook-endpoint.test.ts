import { describe, expect, it } from 'vitest';
import { isWebhookEndpoint } from '../../../src/contract/webhook-endpoint.js';

describe('isWebhookEndpoint', () => {
  it.each([
    ['https://hooks.example.com/circle', true],
    ['https://hooks.example.com:8443/x', true],
    ['http://127.0.0.1:3000/hook', true],
    ['http://localhost/hook', true],
    ['http://[::1]:8080/hook', true],
    ['http://hooks.example.com/hook', false],
    ['http://127.0.0.1.evil.example/hook', false],
    ['https://user:pass@hooks.example.com/x', false],
    ['ftp://hooks.example.com/x', false],
    ['not a url', false],
    ['', false],
  ])('%s -> %s', (url, expected) => {
    expect(isWebhookEndpoint(url)).toBe(expected);
  });
});
