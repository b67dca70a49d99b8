import { describe, expect, it } from 'vitest';
import { IdMap } from '../../../src/simulator/probe/ids.js';
import { assignKeys } from '../../../src/simulator/probe/keys.js';

// The probe's maps on their own: recorded ids to the simulator's, recorded key ids to entities.

describe('IdMap', () => {
  it('learns ids at the same place in both answers and rewrites path, query and body with them', () => {
    const ids = new IdMap();
    ids.learn(
      { data: { id: 'sub-rec', auctionId: 7, items: [{ withdrawalId: 'w-rec' }], name: 'same', note: 'x' } },
      { data: { id: 'sub-sim', auctionId: 1, items: [{ withdrawalId: 'w-sim' }], name: 'other', note: 'y' } },
    );
    expect(ids.pairs()).toEqual([
      { recorded: 'sub-rec', simulated: 'sub-sim' },
      { recorded: '7', simulated: '1' },
      { recorded: 'w-rec', simulated: 'w-sim' },
    ]);
    const sent = ids.rewrite({
      method: 'POST',
      path: '/v1/notifications/subscriptions/sub-rec',
      query: { auctionId: '7', other: ['w-rec', 'keep'] },
      body: { auctionId: 7, nested: [{ id: 'w-rec' }], name: 'sub-rec', orderId: 'unknown' },
    });
    expect(sent).toEqual({
      method: 'POST',
      path: '/v1/notifications/subscriptions/sub-sim',
      query: { auctionId: '1', other: ['w-sim', 'keep'] },
      // Only id fields are rewritten in a body (a name that happens to equal an id is kept); an
      // integer id stays an integer.
      body: { auctionId: 1, nested: [{ id: 'w-sim' }], name: 'sub-rec', orderId: 'unknown' },
    });
  });

  it('pairs list items only when the lists are as long, and keeps the first pairing of an id', () => {
    const ids = new IdMap();
    ids.learn({ items: [{ id: 'a' }, { id: 'b' }] }, { items: [{ id: 'x' }] });
    ids.learn({ id: 'a' }, { id: 'y' });
    ids.learn({ id: 'a' }, { id: 'z' });
    ids.learn({ id: 5 }, { id: '5' });
    expect(ids.pairs()).toEqual([{ recorded: 'a', simulated: 'y' }]);
  });

  it('asks the fallback for an id field it does not know', () => {
    const ids = new IdMap();
    const sent = ids.rewrite(
      {
        method: 'POST',
        path: '/v1/match/orders',
        query: {},
        body: { sourceWalletId: 'sandbox-w', feeBps: '5' },
      },
      (field, value) => (field === 'sourceWalletId' ? `${value}->own` : undefined),
    );
    expect(sent.body).toEqual({ sourceWalletId: 'sandbox-w->own', feeBps: '5' });
  });
});

describe('assignKeys', () => {
  const http = (keyId: string | null) =>
    ({
      kind: 'http',
      at: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      keyId,
      attempt: 1,
      request: { method: 'GET', path: '/', query: {}, body: null },
      response: null,
    }) as const;
  const names = ['burner', 'minter', 'ineligible', 'noaccount', 'quoter'];

  it('names, then as, then the seeded entities in turn, skipping the ones taken', () => {
    const entries = [http('k1'), http(null), http('minter'), http('k2'), http('k1'), http('k3')];
    const keys = assignKeys(entries, names, { k3: 'burner' });
    expect([...keys.values()]).toEqual([
      { keyId: 'k1', entity: 'ineligible', how: 'in turn' },
      { keyId: 'minter', entity: 'minter', how: 'named' },
      { keyId: 'k2', entity: 'noaccount', how: 'in turn' },
      { keyId: 'k3', entity: 'burner', how: 'as' },
    ]);
  });

  it('refuses an entity the probe does not have, and more keys than entities', () => {
    expect(() => assignKeys([http('k1')], names, { k1: 'nobody' })).toThrow(/k1=nobody names no entity/);
    expect(() => assignKeys(['a', 'b', 'c', 'd', 'e'].map(http), names)).toThrow(
      /give e one with as \(--as e=<entity>\)/,
    );
  });
});
