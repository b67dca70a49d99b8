/**
 * The shipped document in the shape client generators read (issue 36, point 2):
 * openapi-python-client refused its boolean schemas and dropped listOrders, whose query parameters
 * pointed into a schema's properties; bounds the checks keep went undeclared; and `format: uri`,
 * the pattern and the generated check disagreed on which webhook URLs are URLs. Standard tools
 * (Ajv with ajv-formats here) must judge as the generated checks, which client and simulator run.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { booleanSchemas } from '../../scripts/openapi-derived.js';
import {
  HTTP_METHODS,
  type OpenApiDocument,
  resolveParameter,
  unusedComponents,
} from '../../scripts/openapi-document.js';
import { collectRefs, isObject } from '../../scripts/openapi-source.js';
import { CancelOrderRequest, HttpsUrl, ModifyOrderRequest } from '../../src/generated/validators.js';
import { accepts } from '../helpers/checks.js';

const doc = parseYaml(
  readFileSync(new URL('../../openapi/match-venue.yaml', import.meta.url), 'utf8'),
) as OpenApiDocument;
const SAFE = Number.MAX_SAFE_INTEGER;

/** Every schema-like object under `node` whose type is or includes `integer`, with where it sits. */
function integers(node: unknown, at: string, into: [string, Record<string, unknown>][] = []) {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) integers(item, `${at}/${i}`, into);
  } else if (isObject(node)) {
    const type = node.type;
    if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) into.push([at, node]);
    for (const [key, value] of Object.entries(node)) integers(value, `${at}/${key}`, into);
  }
  return into;
}

describe('the document as client generators read it', () => {
  it('has no boolean schemas (additionalProperties: false forbids what `false` properties did)', () => {
    expect(booleanSchemas(doc, '#')).toEqual([]);
    expect(doc.components.schemas.MintOrderRequest?.additionalProperties).toBe(false);
  });

  it('points every $ref at a whole component, never into one', () => {
    const refs = collectRefs(doc, []);
    expect(refs.filter((ref) => !/^#\/components\/(schemas|parameters|responses)\/\w+$/.test(ref))).toEqual(
      [],
    );
  });

  it('gives every query parameter a component of its own, referenced by the operation', () => {
    const inline: string[] = [];
    const query: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of HTTP_METHODS) {
        for (const param of item[method]?.parameters ?? []) {
          const resolved = resolveParameter(doc, param);
          if (resolved.in !== 'query') continue;
          if (!('$ref' in param)) inline.push(`${method} ${path} ${resolved.name}`);
          query.push(`${item[method]?.operationId}.${resolved.name}`);
        }
      }
    }
    expect(inline).toEqual([]);
    expect(query).toEqual(
      ['page', 'pageSize', 'status', 'orderType', 'orderId', 'from', 'to'].map(
        (name) => `listOrders.${name}`,
      ),
    );
  });

  it('uses every component it declares (schemas, parameters, responses)', () => {
    expect(unusedComponents(doc)).toEqual([]);
  });

  it('declares both bounds of every integer, within the range every integer check keeps', () => {
    const found = integers(doc, '#');
    expect(found.length).toBeGreaterThan(15);
    const unbounded = found.filter(
      ([, schema]) =>
        typeof schema.minimum !== 'number' ||
        typeof schema.maximum !== 'number' ||
        schema.minimum < -SAFE ||
        schema.maximum > SAFE,
    );
    expect(unbounded.map(([at]) => at)).toEqual([]);
  });

  it('declares the auctionId of cancel and modify bodies as the checks keep it: plus or minus 2^53-1', () => {
    const orderId = '6c1e7a52-3f0b-4d8e-9a61-2b7c4d5e6f70';
    for (const [name, check, extra] of [
      ['CancelOrderRequest', CancelOrderRequest, {}],
      ['ModifyOrderRequest', ModifyOrderRequest, { feeBps: '1' }],
    ] as const) {
      const auctionId = doc.components.schemas[name]?.properties?.auctionId;
      expect(auctionId, name).toMatchObject({ minimum: -SAFE, maximum: SAFE });
      for (const value of [-SAFE, 1, SAFE])
        expect(accepts(check, { auctionId: value, orderId, ...extra }), `${name} ${value}`).toBe(true);
      for (const value of [-SAFE - 1, SAFE + 1, 2 ** 60])
        expect(accepts(check, { auctionId: value, orderId, ...extra }), `${name} ${value}`).toBe(false);
    }
  });
});

describe('a webhook URL: format uri, the pattern and the generated check agree', () => {
  const schema = doc.components.schemas.HttpsUrl ?? {};
  const ajv = new Ajv2020({ strict: false });
  formats.default(ajv);
  // What a standard tool reads: the type, format and pattern; the x- extensions are ignored.
  const standard = ajv.compile({ type: schema.type, format: schema.format, pattern: schema.pattern });
  const patternOnly = ajv.compile({ type: 'string', pattern: schema.pattern });
  const formatOnly = ajv.compile({ type: 'string', format: 'uri' });

  it.each([
    'https://hooks.example.com/circle',
    'https://hooks.example.com:8443/x?tenant=7#y',
    'https://hooks.example.com/%C3%BC?q=a%20b&r=(1)',
    'https://[2001:db8::1]/hook',
    'http://127.0.0.1:3000/hook',
    'http://localhost',
    'http://[::1]:8080/hook',
    'http://hooks.example.com/hook',
    'http://127.0.0.1.evil.example/hook',
    'https://user:pass@hooks.example.com/x',
    'https://user@hooks.example.com/x',
    'ftp://hooks.example.com/x',
    'not a url',
    '',
    'https://',
    'https://hooks.example.com/ad\nmin',
    'https://hooks.example.com/a\tb',
    'https://hooks.example.com/a\u0001b',
    'https://hooks.example.com/a\u007fb',
    'https://hooks.example.com/a b',
    ' https://hooks.example.com/x',
    'https://hooks.example.com/\u00fc',
    'https://hooks.example.com/a<b>',
    'https://hooks.example.com/{x}|y^`',
    'https://hooks.example.com/a\\b',
    'https://hooks.example.com/"q"',
    'https://hooks.example.com/a%zz',
    'https://hooks.example.com:99999/',
    'https://hooks.example.com/#a#b',
  ])('%j', (url) => {
    const verdict = accepts(HttpsUrl, url);
    expect(standard(url), 'format uri + pattern').toBe(verdict);
    // The pattern alone never takes what `format: uri` refuses.
    if (patternOnly(url)) expect(formatOnly(url), 'format uri').toBe(true);
  });

  // Where a pattern stops short of the URL parser: host syntax. The generated check refuses these
  // (it parses the URL as fetch will); a tool reading only the pattern would take them.
  it.each([
    ['https://[:::]/hook', 'a malformed IPv6 literal: format uri refuses it too'],
    ['https://1.2.3.999/hook', 'a host the parser reads as an IPv4 address, out of range'],
  ])('%j: %s', (url) => {
    expect(accepts(HttpsUrl, url)).toBe(false);
    expect(patternOnly(url)).toBe(true);
  });
});
