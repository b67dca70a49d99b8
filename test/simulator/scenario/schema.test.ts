import { readdirSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { checkScenario } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const schema = JSON.parse(readFileSync('schemas/scenario.schema.json', 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
const examples = readdirSync('examples/scenarios').sort();

describe('schemas/scenario.schema.json (published, drawn from the zod schema)', () => {
  it('is shipped in the package', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { files: string[] };
    expect(pkg.files).toEqual(expect.arrayContaining(['schemas', 'examples/scenarios']));
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  it('validates every example scenario, as the simulator does', () => {
    expect(examples).toEqual(['busy-then-one-sided.yaml', 'fault-drill.yaml', 'thin-mint-side.json']);
    for (const name of examples) {
      const doc = parse(readFileSync(`examples/scenarios/${name}`, 'utf8'));
      expect({ name, valid: validate(doc), errors: validate.errors ?? null }).toEqual({
        name,
        valid: true,
        errors: null,
      });
      expect(() => checkScenario(doc, name)).not.toThrow();
    }
  });

  it('refuses a bad one at the path the simulator names', () => {
    const bad = {
      version: 1,
      phases: [{ fromAuction: 0, market: { preset: 'busy', noise: { activity: 1.5 } } }],
      faults: [{ atAuction: 2, set: { errorRate: 2 } }],
      entities: { 'My Bot': {} },
    };
    expect(validate(bad)).toBe(false);
    const found = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
    expect(found).toEqual(
      expect.arrayContaining([
        '/phases/0/fromAuction minimum',
        '/phases/0/market/noise/activity maximum',
        '/faults/0/set/errorRate maximum',
        '/entities propertyNames',
      ]),
    );
    expect(validate({ version: 1, clock: { mode: 'fast' } })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/clock/mode', keyword: 'enum' });
    expect(validate({ seed: 1 })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({
      keyword: 'required',
      params: { missingProperty: 'version' },
    });
  });
});
