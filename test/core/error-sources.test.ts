import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('the source', () => {
  const root = new URL('../../src/', import.meta.url);
  /** Not the client's errors: the simulator answers over HTTP; generated code throws nothing. */
  const EXCLUDED = ['simulator/', 'generated/'];
  /**
   * Internal: the HTTP pipeline wraps these (as `cause`) in APIConnectionError; the stream turns the
   * socket codec's SocketMoneyError into a `stream.resync` event (reason `undecodable`), never a throw.
   */
  const WRAPPED: Record<string, RegExp> = {
    'core/transport.ts': /class TransportTimeoutError extends Error/,
    'core/undici-transport.ts': /new Error\('text\(\) before the response arrived'\)/,
    'contract/ws-codec.ts': /class SocketMoneyError extends RangeError/,
    // Certificate and key parsing: WEBHOOK_CERT_INVALID carries it as `cause`; p256.ts answers a
    // key problem instead.
    'webhooks/der-reader.ts': /class DerReadError extends Error/,
    // A recorded lost connection replayed as fetch fails (TypeError, its cause's code): the
    // pipeline wraps it in APIConnectionError exactly as it wraps the real one.
    'testing/replay/answers.ts':
      /throw new TypeError\('fetch failed', \{|cause: Object\.assign\(new Error\(answer\.error\)/,
  };
  /**
   * Server side only: the socket codec (shared through src/contract/) refusing to encode money that
   * cannot travel as integer cents, which only the simulator's hub does.
   */
  const SERVER_SIDE: Record<string, RegExp> = {
    'contract/ws-codec.ts': /throw new RangeError\(`\$\{event\}: \$\{path\} cannot travel as socket cents/,
    // The signing code's node:crypto lookup: only the simulator reaches it unchecked (on Node);
    // match-venue/webhooks' test signers check first and throw WEBHOOK_CONFIG_INVALID.
    'webhook-crypto/node-crypto.ts': /throw new RangeError\(/,
  };
  const PLAIN =
    /\bnew (?:Error|TypeError|RangeError|SyntaxError|MatchVenueError)\(|\bextends (?:Error|TypeError|RangeError)\b/;

  it('throws no plain Error, TypeError, RangeError or bare MatchVenueError', () => {
    const offenders: string[] = [];
    for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      const rel = file.split('\\').join('/');
      if (!rel.endsWith('.ts') || EXCLUDED.some((p) => rel.startsWith(p))) continue;
      readFileSync(new URL(rel, root), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(line) || !PLAIN.test(line)) return;
          if (rel === 'contract/base-error.ts' && /class MatchVenueError extends Error/.test(line)) return;
          if (WRAPPED[rel]?.test(line)) return;
          if (SERVER_SIDE[rel]?.test(line)) return;
          offenders.push(`src/${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
