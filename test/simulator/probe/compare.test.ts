import { describe, expect, it } from 'vitest';
import type { CassetteEntry } from '../../../src/contract/cassette.js';
import { compareEvents, type StreamEvent } from '../../../src/simulator/probe/events.js';
import { ignoreMatcher } from '../../../src/simulator/probe/ignore.js';
import { compareShapes } from '../../../src/simulator/probe/shape.js';
import { probeStart } from '../../../src/simulator/probe/start.js';

// The probe's comparisons on their own: shapes (never values), ignore paths, event sequences.

describe('compareShapes', () => {
  it('compares fields and types, never values', () => {
    expect(compareShapes({ a: 'x', n: 1, b: true }, { a: 'y', n: 2, b: false })).toEqual([]);
    expect(compareShapes({ a: 'x', gone: 1, o: { n: 1 } }, { a: 1, new: null, o: { n: '1' } })).toEqual([
      { kind: 'type', path: 'a', recorded: 'string', simulated: 'number' },
      { kind: 'missing', path: 'gone', recorded: 'number', simulated: '-' },
      { kind: 'type', path: 'o.n', recorded: 'number', simulated: 'string' },
      { kind: 'extra', path: 'new', recorded: '-', simulated: 'null' },
    ]);
  });

  it('compares lists by their items union, whatever their lengths', () => {
    const item = { id: 'a', fill: null };
    const filled = { id: 'b', fill: { amount: '1.00' } };
    expect(compareShapes({ items: [item, filled, item] }, { items: [filled] })).toEqual([]);
    expect(compareShapes({ items: [] }, { items: [{ odd: 1 }] })).toEqual([]);
    expect(compareShapes({ items: [{ id: 'a' }] }, { items: [{ id: 'a' }, { id: 'b', extra: 1 }] })).toEqual([
      { kind: 'extra', path: 'items[].extra', recorded: '-', simulated: 'number' },
    ]);
  });

  it('reports null against a value once, not the subtree under it', () => {
    expect(compareShapes({ fill: null }, { fill: { a: 1, b: 2 } })).toEqual([
      { kind: 'type', path: 'fill', recorded: 'null', simulated: 'object' },
    ]);
    expect(compareShapes('text', { a: 1 })).toEqual([
      { kind: 'type', path: '(body)', recorded: 'string', simulated: 'object' },
    ]);
  });
});

describe('ignoreMatcher', () => {
  const ignores = ignoreMatcher([
    'data.pagination',
    '*.createdAt',
    '**.ts',
    'data.orders[].fill',
    'events.market',
  ]);
  it.each([
    ['data.pagination', true],
    ['data.pagination.total', true],
    ['data.paginationX', false],
    ['data.createdAt', true],
    ['data.order.createdAt', false],
    ['ts', true],
    ['data.a.b.ts', true],
    ['data.orders[].fill.matchedAt', true],
    ['data.orders[].status', false],
    ['events.market.auction.cleared', true],
    ['events.account.order.updated', false],
    ['status', false],
  ])('%s: %s', (path, ignored) => {
    expect(ignores(path)).toBe(ignored);
  });
});

const ev = (names: string): StreamEvent[] =>
  names.split(' ').map((name) => {
    const [channel, event] = name.split(':') as [string, string];
    return { channel, event, data: null };
  });

describe('compareEvents', () => {
  it('finds nothing in the same sequence', () => {
    const s = ev('m:opened a:order.accepted a:balance.updated m:locked m:cleared');
    expect(compareEvents(s, s)).toMatchObject({ differences: [] });
  });

  it('reports a swapped pair once, a missing kind and an extra one, with positions', () => {
    const recorded = ev('m:opened a:order.accepted a:balance.updated m:locked m:paused m:cleared');
    const simulated = ev('m:opened a:balance.updated a:order.accepted m:locked m:cleared m:settled');
    expect(compareEvents(recorded, simulated).differences).toEqual([
      {
        kind: 'order',
        name: 'a order.accepted',
        channel: 'a',
        event: 'order.accepted',
        recorded: [2],
        simulated: [3],
      },
      { kind: 'missing', name: 'm paused', channel: 'm', event: 'paused', recorded: [5], simulated: [] },
      { kind: 'extra', name: 'm settled', channel: 'm', event: 'settled', recorded: [], simulated: [6] },
    ]);
  });

  it('gathers the same kind missing many times into one row', () => {
    const recorded = ev('m:opened m:tick m:locked m:tick m:cleared m:tick');
    const simulated = ev('m:opened m:locked m:cleared');
    expect(compareEvents(recorded, simulated).differences).toEqual([
      { kind: 'missing', name: 'm tick', channel: 'm', event: 'tick', recorded: [2, 4, 6], simulated: [] },
    ]);
  });

  it('aligns long sequences that share their start and end', () => {
    const long = Array.from({ length: 20_000 }, (_, i) => `m:e${i % 7}`).join(' ');
    const recorded = ev(long);
    const simulated = [...recorded.slice(0, 10_000), ...ev('m:odd'), ...recorded.slice(10_000)];
    expect(compareEvents(recorded, simulated).differences).toEqual([
      { kind: 'extra', name: 'm odd', channel: 'm', event: 'odd', recorded: [], simulated: [10_001] },
    ]);
  });
});

describe('probeStart', () => {
  const http = (at: string, body: unknown) =>
    ({
      kind: 'http',
      at,
      durationMs: 1,
      keyId: 'burner',
      attempt: 1,
      request: { method: 'GET', path: '/', query: {}, body: null },
      response: { status: 200, body },
    }) as CassetteEntry;
  const auction = (opensAt: string, clearsAt: string) => ({ auction: { opensAt, clearsAt } });

  it('starts at the opening of the auction open at the first step, when the recording shows it', () => {
    const entries = [
      http('2026-03-01T10:00:04.000Z', null),
      http('2026-03-01T10:00:30.000Z', auction('2026-03-01T10:00:20.000Z', '2026-03-01T10:00:30.000Z')),
      http('2026-03-01T10:00:31.000Z', auction('2026-03-01T10:00:00.000Z', '2026-03-01T10:00:10.000Z')),
    ];
    expect(new Date(probeStart(entries, '2026-03-01T09:00:00Z')).toISOString()).toBe(
      '2026-03-01T10:00:00.000Z',
    );
  });

  it('starts at the first step otherwise, or at the header for an empty cassette', () => {
    const entries = [
      http('2026-03-01T10:00:04.000Z', auction('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:10.000Z')),
    ];
    expect(new Date(probeStart(entries, '2026-03-01T09:00:00Z')).toISOString()).toBe(
      '2026-03-01T10:00:04.000Z',
    );
    expect(probeStart([], '2026-03-01T09:00:00.000Z')).toBe(Date.parse('2026-03-01T09:00:00.000Z'));
  });
});
