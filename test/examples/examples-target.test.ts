// The README says every example runs against MATCH_VENUE_BASE_URL when it is set. Each example
// either picks its target through examples/support/target.ts (which reads the variable) or reads
// it itself; the runs against a simulator are in examples.test.ts and the examples' own tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../../examples', import.meta.url));
const examples = readdirSync(dir).filter((name) => name.endsWith('.ts'));

describe('every example honours MATCH_VENUE_BASE_URL', () => {
  it('finds the examples', () => {
    expect(examples).toEqual(
      expect.arrayContaining(['quickstart.ts', 'stream-events.ts', 'webhook-receiver.ts']),
    );
  });

  it.each(examples)('%s', (name) => {
    const source = readFileSync(join(dir, name), 'utf8');
    const viaTarget = source.includes("from './support/target.js'") && /\bopenTarget\(/.test(source);
    const itself = source.includes('process.env.MATCH_VENUE_BASE_URL');
    expect(viaTarget || itself).toBe(true);
  });
});
