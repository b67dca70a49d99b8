import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { ConfigurationError, MatchVenue } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiClientOf } from '../../src/client/match-venue.js';
import { isRecordingTransport } from '../../src/core/record-load.js';
import { running, useSimulator } from '../client/simulator-client.js';
import { cassettePath, httpLines, readBack } from './files.js';

// Turning recording on and off, and the file: created with its header, continued when it is a
// cassette of this version, refused (at construction, naming the file and both versions) when not.

useSimulator();
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const make = (extra: ConstructorParameters<typeof MatchVenue>[0] = {}) =>
  new MatchVenue({ apiKey: SEEDED.burner.apiKey, baseUrl: running.url, ...extra });

const header = (version: number) =>
  JSON.stringify({
    kind: 'cassette',
    format: 'match-venue-cassette',
    version,
    createdAt: '2026-11-28T09:00:00.000Z',
    sdk: 'match-venue-node/0.0.9',
  });

describe('record: on and off', () => {
  it('off (no option, no MATCH_VENUE_RECORD, or an empty value): no file, no recorder, the transport unwrapped', async () => {
    vi.stubEnv('MATCH_VENUE_RECORD', undefined);
    const plain = apiClientOf(make());
    expect(plain.recorder).toBeUndefined();
    expect(isRecordingTransport(plain.transport)).toBe(false);

    const file = cassettePath();
    vi.stubEnv('MATCH_VENUE_RECORD', '  ');
    const blank = make();
    await blank.account.retrieve();
    // An explicit empty option is off even when the variable names a file.
    vi.stubEnv('MATCH_VENUE_RECORD', file);
    const optedOut = make({ record: '' });
    await optedOut.account.retrieve();
    expect(apiClientOf(optedOut).recorder).toBeUndefined();
    expect(isRecordingTransport(apiClientOf(optedOut).transport)).toBe(false);
    expect(existsSync(file)).toBe(false);

    const on = apiClientOf(make({ record: cassettePath() }));
    expect(on.recorder?.keyId).toBe('burner');
    expect(isRecordingTransport(on.transport)).toBe(true);
  });

  it('MATCH_VENUE_RECORD records like the option', async () => {
    const file = cassettePath();
    vi.stubEnv('MATCH_VENUE_RECORD', file);
    await make().configuration.retrieve();
    const lines = httpLines(readBack(file));
    expect(lines.map((l) => `${l.request.method} ${l.request.path} ${l.response?.status}`)).toEqual([
      'GET /v1/configuration 200',
    ]);
  });

  it('a cassette of this version is continued: its lines kept, no second header', async () => {
    const file = cassettePath();
    const earlier = {
      kind: 'http',
      at: '2026-11-28T09:00:01.000Z',
      durationMs: 2,
      keyId: 'minter',
      attempt: 1,
      request: { method: 'GET', path: '/v1/match/account', query: {}, body: null },
      response: { status: 200, body: { data: {} } },
    };
    writeFileSync(file, `${header(1)}\n${JSON.stringify(earlier)}\n`);
    await make({ record: file }).account.retrieve();
    const doc = readBack(file);
    expect(doc.text.match(/"kind":"cassette"/g)).toHaveLength(1);
    expect(doc.header.createdAt).toBe('2026-11-28T09:00:00.000Z');
    expect(doc.entries[0]).toEqual(earlier);
    expect(doc.entries.map((e) => e.keyId)).toEqual(['minter', 'burner']);
  });

  it('two clients on one file share it: one header, each line whole', async () => {
    const file = cassettePath();
    const burner = make({ record: file });
    const minter = new MatchVenue({ apiKey: SEEDED.minter.apiKey, baseUrl: running.url, record: file });
    await Promise.all([
      burner.account.retrieve(),
      minter.account.retrieve(),
      burner.configuration.retrieve(),
    ]);
    const doc = readBack(file);
    expect(doc.text.match(/"kind":"cassette"/g)).toHaveLength(1);
    expect(
      httpLines(doc)
        .map((l) => l.keyId)
        .sort(),
    ).toEqual(['burner', 'burner', 'minter']);
  });
});

describe('record: files it refuses, at construction', () => {
  it('a cassette of another version, naming the file, the version found and the version written', () => {
    const file = cassettePath('old.ndjson');
    writeFileSync(file, `${header(2)}\n`);
    const build = () => make({ record: file });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(
      `cannot record to ${file}: the file is a cassette of version 2; this SDK writes cassette version 1: record to a new file`,
    );
    expect(readFileSync(file, 'utf8')).toBe(`${header(2)}\n`);
  });

  it('a file that is not a cassette, and one whose last line was cut short', () => {
    const notes = cassettePath('notes.txt');
    writeFileSync(notes, 'shopping list\n');
    expect(() => make({ record: notes })).toThrow(
      /^cannot record to .*notes\.txt: the file is not a cassette/,
    );
    const cut = cassettePath('cut.ndjson');
    writeFileSync(cut, `${header(1)}\n{"kind":"http","at":`);
    expect(() => make({ record: cut })).toThrow(/cut\.ndjson: the file ends in a line cut short/);
  });

  it('a record option that is not a path, and a runtime without a file system (record is Node only)', () => {
    expect(() => make({ record: 5 as unknown as string })).toThrow(
      /^MatchVenue options: record must be a file path \(a string\), got number$/,
    );
    const file = cassettePath();
    vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
    expect(() => make({ record: file })).toThrow(ConfigurationError);
    expect(() => make({ record: file })).toThrow(/record is Node only/);
    expect(existsSync(file)).toBe(false);
  });
});

describe('record: a write that fails', () => {
  it('is logged once as a warning and never breaks the call', async () => {
    const file = cassettePath();
    const warn = vi.fn();
    const logger = { debug() {}, info() {}, warn, error() {} };
    const venue = make({ record: file, logger, logLevel: 'warn' });
    await venue.account.retrieve();
    // The file turns into a directory: every later append fails.
    rmSync(file);
    mkdirSync(file);
    await expect(venue.account.retrieve()).resolves.toBeDefined();
    await expect(venue.configuration.retrieve()).resolves.toBeDefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/recording to .* failed \(EISDIR/);
    expect(JSON.stringify(warn.mock.calls)).not.toContain(SEEDED.burner.apiKey);
  });
});
