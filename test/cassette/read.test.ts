import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import {
  CASSETTE_VERSION,
  type CassetteEntry,
  type CassetteHeader,
  parseCassette,
} from 'match-venue/simulator';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { CassetteEntrySchema, CassetteHeaderSchema } from '../../src/simulator/cassette/schema.js';

const header = {
  kind: 'cassette',
  format: 'match-venue-cassette',
  version: 1,
  createdAt: '2026-11-29T12:00:00.000Z',
  sdk: 'match-venue-node/0.0.0',
};
const http = {
  kind: 'http',
  at: '2026-11-29T12:00:00.100Z',
  durationMs: 3.5,
  keyId: 'burner',
  attempt: 1,
  request: { method: 'GET', path: '/v1/match/account', query: {}, body: null },
  response: { status: 200, body: { usdWallet: { amount: '10.00', currency: 'USD' } } },
};
const ws = {
  kind: 'ws',
  at: '2026-11-29T12:00:00.200Z',
  connection: 1,
  keyId: 'burner',
  event: 'receive',
  frame: { type: 'hello' },
};
const lines = (...values: unknown[]) => `${values.map((v) => JSON.stringify(v)).join('\n')}\n`;

describe('parseCassette: a cassette checked whole, each mistake named by line and rule', () => {
  it('reads the header and every exchange in order', () => {
    const doc = parseCassette(lines(header, http, ws));
    expect(doc.header.version).toBe(CASSETTE_VERSION);
    expect(doc.entries.map((e) => e.kind)).toEqual(['http', 'ws']);
    expect(doc.entries[0]).toEqual(http);
  });

  it('refuses a cassette of another version, naming the version it reads', () => {
    expect(() => parseCassette(lines({ ...header, version: 2 }, http), 'old.ndjson')).toThrow(
      'old.ndjson, line 1: version 2 is not supported: this SDK reads cassette version 1',
    );
  });

  it('refuses a last line cut short as truncated, and a broken middle line as not JSON', () => {
    const text = lines(header, http);
    const cut = `${text}${JSON.stringify(ws).slice(0, 30)}`;
    expect(() => parseCassette(cut, 'c.ndjson')).toThrow(
      'c.ndjson, line 3: is not complete JSON: the line was cut short',
    );
    const broken = `${JSON.stringify(header)}\n{oops\n${JSON.stringify(http)}\n`;
    expect(() => parseCassette(broken)).toThrow('cassette, line 2: is not a JSON object');
  });

  it('refuses a file without its header, and a line of the wrong shape by path', () => {
    expect(() => parseCassette(lines(http))).toThrow('line 1: must be the header line');
    expect(() => parseCassette('')).toThrow('is empty');
    const bad = { ...http, response: { status: 700, body: null } };
    expect(() => parseCassette(lines(header, bad))).toThrow(/line 2: response\.status .*599/);
    expect(() => parseCassette(lines(header, { ...ws, event: 'ping' }))).toThrow(/line 2: event /);
  });

  it('is what the published schema says: each valid line passes it and each refused one fails it', () => {
    const schema = JSON.parse(readFileSync('schemas/cassette.schema.json', 'utf8'));
    const ajv = new Ajv({ strict: false, validateFormats: false });
    const validate = ajv.compile(schema);
    for (const value of [header, http, ws]) expect(validate(value)).toBe(true);
    for (const value of [
      { ...header, version: 2 },
      { ...http, response: { status: 700, body: null } },
      { ...ws, event: 'ping' },
    ])
      expect(validate(value)).toBe(false);
  });

  it('has the contract interfaces as the schemas inferred types', () => {
    expectTypeOf<z.infer<typeof CassetteHeaderSchema>>().toEqualTypeOf<CassetteHeader>();
    expectTypeOf<z.infer<typeof CassetteEntrySchema>>().toEqualTypeOf<CassetteEntry>();
  });
});
