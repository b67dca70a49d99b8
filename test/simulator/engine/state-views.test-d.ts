// The engine is the only writer of its state: outside src/simulator/engine/ it is a read-only view
// (VenueEngine.state), and the market and scenarios get a seeder and a desk, not the state.
import { describe, expectTypeOf, it } from 'vitest';
import type { EnginePopulation, VenueEngine } from '../../../src/simulator/engine/engine.js';
import type { MarketDesk } from '../../../src/simulator/engine/market-desk.js';
import type { EngineSeeder } from '../../../src/simulator/engine/seeder.js';
import type { AuctionView, EngineStateView } from '../../../src/simulator/engine/state-views.js';
import type * as simulator from '../../../src/simulator/index.js';

declare const engine: VenueEngine;

describe('the engine state outside engine/', () => {
  it('is a read-only view: a write through engine.state does not compile', () => {
    expectTypeOf(engine.state).toEqualTypeOf<EngineStateView>();
    // Never run: each line must fail to compile (tsc reports an unused @ts-expect-error).
    const writes = () => {
      const s = engine.state;
      // @ts-expect-error a ReadonlyMap
      s.entities.set('id', s.entities.get('id') as never);
      // @ts-expect-error a Readonly record
      s.house.stablecoinCents -= 1;
      // @ts-expect-error a Readonly record inside a ReadonlyMap
      (s.wallets.get('id') ?? ({} as never)).balanceCents += 1;
      // @ts-expect-error a readonly array
      s.auctions.get(1)?.orders.push(s.orders.get('id') as never);
      // @ts-expect-error the order index without its writers
      s.orders.delete('id');
      // @ts-expect-error a getter only: the engine swaps its state itself (importSnapshot)
      engine.state = s;
    };
    expectTypeOf(writes).toBeFunction();
  });

  it('reaches a population as a seeder and a desk, never as the state or a step context', () => {
    expectTypeOf<Parameters<EnginePopulation['seed']>>().toEqualTypeOf<[EngineSeeder]>();
    expectTypeOf<Parameters<EnginePopulation['onOpened']>>().toEqualTypeOf<[MarketDesk, AuctionView]>();
  });

  it('is no longer exported as EngineState; EngineStateView is', () => {
    expectTypeOf<simulator.EngineStateView>().toEqualTypeOf<EngineStateView>();
    // @ts-expect-error EngineState is the engine's own (engine/state.ts)
    expectTypeOf<simulator.EngineState>().not.toBeAny();
  });
});
