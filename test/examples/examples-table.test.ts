import { describe, expect, it } from 'vitest';
import { formatTable, stdoutTakesColor } from '../../examples/support/table.js';

describe("the examples' tables", () => {
  const rows = [
    { entity: 'burner', available: '99,989,500.00', limit: 'market' },
    { entity: 'minter (mint side)', available: '500.00', limit: '4' },
  ];

  it('aligns columns, right-aligns numbers, and has no index column or quotes', () => {
    expect(formatTable(rows, { color: false })).toEqual([
      '  entity                  available  limit',
      '  ──────────────────  ─────────────  ──────',
      '  burner              99,989,500.00  market',
      '  minter (mint side)         500.00  4',
    ]);
  });

  it('colours the header and rule only when asked', () => {
    const [header, rule] = formatTable(rows, { color: true });
    expect(header).toBe('\x1b[1m  entity                  available  limit\x1b[22m');
    expect(rule?.startsWith('\x1b[2m')).toBe(true);
  });

  it('takes colour on FORCE_COLOR, never under NO_COLOR when piped', () => {
    expect(stdoutTakesColor({ FORCE_COLOR: '1' })).toBe(true);
    expect(stdoutTakesColor({ FORCE_COLOR: '0', NO_COLOR: '1' })).toBe(false);
  });
});
