import type { Orders } from 'match-venue';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SettlementHold, summaryNeed } from '../../src/state/settlement-hold.js';

// The mirror's hold: what follows an order turning final waits for the summary of its settlement
// (src/state/settlement-hold.ts). The mirror over a real stream is test/state/mirror-settled-summary.

const order = (status: string) => ({ orderId: 'o', status }) as Orders.Order;

describe('summaryNeed', () => {
  it('an order turning final needs a summary: the next event from the stream, a later read from REST', () => {
    expect(summaryNeed(order('filled'), order('settling'), false)).toBe('event');
    expect(summaryNeed(order('filled'), undefined, false)).toBe('event');
    expect(summaryNeed(order('cancelled'), order('pending'), true)).toBe('read');
    // Nothing to wait for: still open, or final already (a roll's child id arriving later).
    expect(summaryNeed(order('settling'), order('pending'), false)).toBe('none');
    expect(summaryNeed(order('partial_fill'), order('partial_fill'), true)).toBe('none');
  });
});

describe('SettlementHold', () => {
  let reads: number;
  let hold: SettlementHold;
  let shown: string[];
  beforeEach(() => {
    vi.useFakeTimers();
    reads = 0;
    shown = [];
    hold = new SettlementHold(500, () => reads++);
  });
  afterEach(() => {
    hold.close();
    vi.useRealTimers();
  });
  const add = (need: 'none' | 'event' | 'read', name: string) => hold.add(need, () => shown.push(name));

  it('shows a change that needs nothing at once, and everything behind a held one after it', () => {
    add('none', 'a');
    add('event', 'filled');
    add('none', 'withdrawal');
    expect(shown).toEqual(['a']);
    hold.afterEvent();
    expect(shown).toEqual(['a', 'filled', 'withdrawal']);
    expect(reads).toBe(0);
  });

  it('asks for a read when no balance event comes within holdMs, and shows the changes after it', () => {
    add('event', 'filled');
    vi.advanceTimersByTime(499);
    expect(reads).toBe(0);
    const mark = hold.mark();
    vi.advanceTimersByTime(1);
    expect(reads).toBe(1);
    expect(shown).toEqual([]);
    hold.afterRead(mark);
    expect(shown).toEqual(['filled']);
  });

  it('a REST order waits for a read that started after it: a balance event does not release it', () => {
    const early = hold.mark();
    add('read', 'rest-filled');
    expect(reads).toBe(1);
    hold.afterEvent();
    hold.afterRead(early);
    expect(shown).toEqual([]);
    add('event', 'stream-filled');
    const late = hold.mark();
    hold.afterRead(late);
    expect(shown).toEqual(['rest-filled', 'stream-filled']);
  });

  it('a failed read releases what it held (bounded), and close drops the rest', () => {
    add('read', 'x');
    hold.releaseAll();
    expect(shown).toEqual(['x']);
    add('event', 'y');
    hold.close();
    vi.advanceTimersByTime(1_000);
    expect(shown).toEqual(['x']);
    expect(reads).toBe(1);
  });
});
