import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, MatchVenue } from 'match-venue';
import { CassetteError, SEEDED } from 'match-venue/simulator';
import { createMockVenue, getMockReplay } from 'match-venue/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cassetteText, HEADER, httpLine } from '../helpers/cassette-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'mv-replay-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const account = { data: { accountId: 'acct_b' } };
const good = file(
  'good.ndjson',
  cassetteText(
    httpLine('burner', { method: 'GET', path: '/v1/match/account' }, { status: 200, body: account }),
    httpLine(
      'minter',
      { method: 'GET', path: '/v1/match/account' },
      { status: 200, body: { data: { accountId: 'acct_m' } } },
    ),
  ),
);
const text = cassetteText(
  httpLine('burner', { method: 'GET', path: '/v1/match/account' }, { status: 200, body: account }),
);
const truncated = file('truncated.ndjson', `${text}${text.split('\n')[1]?.slice(0, 40)}`);
const otherVersion = file(
  'v2.ndjson',
  text.replace(JSON.stringify(HEADER), JSON.stringify({ ...HEADER, version: 2 })),
);

const ENV = ['MATCH_VENUE_ENV', 'MATCH_VENUE_MOCK', 'MATCH_VENUE_MOCK_CASSETTE'] as const;
const saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('replay in mock mode (MATCH_VENUE_MOCK_CASSETTE)', () => {
  it('MATCH_VENUE_MOCK=1 with a cassette answers from it offline: no simulator, no socket', async () => {
    process.env.MATCH_VENUE_MOCK = '1';
    process.env.MATCH_VENUE_MOCK_CASSETTE = good;
    const connect = net.Socket.prototype.connect;
    let connects = 0;
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      connects++;
      return Reflect.apply(connect, this, args) as net.Socket;
    } as typeof connect;
    try {
      const venue = new MatchVenue({ apiKey: SEEDED.minter.apiKey, validateResponses: false });
      expect(venue.environment).toBe('mock');
      expect(await venue.account.retrieve()).toEqual({ accountId: 'acct_m' });
      expect(await new MatchVenue({ validateResponses: false }).account.retrieve()).toEqual({
        accountId: 'acct_b',
      });
    } finally {
      net.Socket.prototype.connect = connect;
    }
    expect(connects).toBe(0);
    // The shared simulator of mock mode was never made.
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('match-venue.mock-simulator')]).toBeUndefined();
    expect((await getMockReplay())?.keyIds).toEqual(new Set(['burner', 'minter']));
  });

  it('refuses MATCH_VENUE_MOCK=1 beside another MATCH_VENUE_ENV, and a value other than 1 or 0', () => {
    process.env.MATCH_VENUE_MOCK = '1';
    process.env.MATCH_VENUE_ENV = 'sandbox';
    expect(() => new MatchVenue({ apiKey: SEEDED.burner.apiKey })).toThrow(
      new ConfigurationError(
        'MATCH_VENUE_MOCK=1 asks for mock mode but MATCH_VENUE_ENV is "sandbox": set only one of them.',
      ),
    );
    process.env.MATCH_VENUE_ENV = 'mock';
    expect(new MatchVenue({}).environment).toBe('mock');
    delete process.env.MATCH_VENUE_ENV;
    process.env.MATCH_VENUE_MOCK = 'yes';
    expect(() => new MatchVenue({})).toThrow('MATCH_VENUE_MOCK must be 1 or 0; got "yes".');
    process.env.MATCH_VENUE_MOCK = '0';
    expect(() => new MatchVenue({})).toThrow(/No API key/);
  });

  it("a cassette cut short fails the client's call with a CassetteError naming the file and the line", async () => {
    process.env.MATCH_VENUE_ENV = 'mock';
    process.env.MATCH_VENUE_MOCK_CASSETTE = truncated;
    const err = await new MatchVenue({}).account.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CassetteError);
    expect((err as Error).message).toBe(
      `${truncated}, line 3: is not complete JSON: the line was cut short (was the recording process killed mid-write?)`,
    );
  });
});

describe('createMockVenue({ cassette })', () => {
  it('refuses a cassette of another version and one cut short, naming the file and the line', async () => {
    await expect(createMockVenue({ cassette: otherVersion })).rejects.toThrow(
      `${otherVersion}, line 1: version 2 is not supported: this SDK reads cassette version 1`,
    );
    await expect(createMockVenue({ cassette: truncated })).rejects.toThrow(
      new CassetteError(
        3,
        'is not complete JSON: the line was cut short (was the recording process killed mid-write?)',
        truncated,
      ),
    );
  });

  it('makes clients for seeded entities and for any recorded key id, and names the ids it has', async () => {
    const venue = await createMockVenue({ cassette: good });
    expect(await venue.client('burner', { validateResponses: false }).account.retrieve()).toEqual({
      accountId: 'acct_b',
    });
    expect(await venue.clientForKeyId('minter', { validateResponses: false }).account.retrieve()).toEqual({
      accountId: 'acct_m',
    });
    expect(() => venue.clientForKeyId('nobody')).toThrow(
      'The cassette records no exchange under key id "nobody"; it has burner, minter',
    );
    await venue.close();
  });
});
