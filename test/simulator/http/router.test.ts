import { describe, expect, it } from 'vitest';
import {
  allowOf,
  handlerFor,
  matchRoute,
  methodNotAllowed,
  type RouteTable,
} from '../../../src/simulator/http/router.js';

// Issue 23: templates are split once per table (on its first match) instead of on every request;
// these pin what a match was before that: exact paths first, then templates in table order, each
// parameter percent-decoded (a malformed escape kept raw), an empty segment never a parameter.
const table: RouteTable<string> = {
  '/v1/orders/modify': { POST: 'modify' },
  '/v1/orders/{id}': { GET: 'get', DELETE: 'delete' },
  '/v1/orders/{id}/fills/{fill}': { GET: 'fill' },
  '/v1/{kind}/list': { GET: 'list' },
  '/v1/kinds/list': { GET: 'kinds' },
};

describe('matchRoute', () => {
  it('an exact path wins over a template that also matches', () => {
    expect(matchRoute(table, '/v1/orders/modify')).toEqual({ methods: { POST: 'modify' }, params: {} });
    expect(matchRoute(table, '/v1/kinds/list')).toEqual({ methods: { GET: 'kinds' }, params: {} });
  });

  it('a template gives its parameters, percent-decoded', () => {
    expect(matchRoute(table, '/v1/orders/abc')).toEqual({
      methods: { GET: 'get', DELETE: 'delete' },
      params: { id: 'abc' },
    });
    expect(matchRoute(table, '/v1/orders/a%2Fb%20c')?.params).toEqual({ id: 'a/b c' });
    expect(matchRoute(table, '/v1/orders/7/fills/%41')).toEqual({
      methods: { GET: 'fill' },
      params: { id: '7', fill: 'A' },
    });
  });

  it('a malformed escape stays raw (the id checks then refuse it, not a 500)', () => {
    expect(matchRoute(table, '/v1/orders/%zz')?.params).toEqual({ id: '%zz' });
  });

  it('no match for an empty parameter, another segment count, or another literal', () => {
    expect(matchRoute(table, '/v1/orders/')).toBeUndefined();
    expect(matchRoute(table, '/v1/orders/1/fills')).toBeUndefined();
    expect(matchRoute(table, '/v2/orders/1')).toBeUndefined();
    expect(matchRoute(table, '/v1/orders/1/extra/2')).toBeUndefined();
  });

  it('the first template in table order matches; repeated matches agree (templates split once)', () => {
    const first = matchRoute(table, '/v1/stuff/list');
    expect(first).toEqual({ methods: { GET: 'list' }, params: { kind: 'stuff' } });
    expect(matchRoute(table, '/v1/stuff/list')).toEqual(first);
    // Each answer has its own params: a caller changing one does not change the next.
    (first as { params: Record<string, string> }).params.kind = 'changed';
    expect(matchRoute(table, '/v1/stuff/list')?.params).toEqual({ kind: 'stuff' });
  });

  it('tables are compiled apart from each other', () => {
    const other: RouteTable<string> = { '/v1/orders/{other}': { PUT: 'put' } };
    expect(matchRoute(other, '/v1/orders/x')).toEqual({ methods: { PUT: 'put' }, params: { other: 'x' } });
    expect(matchRoute(table, '/v1/orders/x')?.params).toEqual({ id: 'x' });
  });
});

// Issue 33: the one home of the method rules every route kind follows.
describe('handlerFor and Allow', () => {
  it('HEAD is served by GET unless the path names HEAD itself or refuses it', () => {
    expect(handlerFor({ GET: 'get' }, 'HEAD')).toBe('get');
    expect(handlerFor({ GET: 'get', HEAD: 'head' }, 'HEAD')).toBe('head');
    expect(handlerFor({ GET: 'confirm', HEAD: undefined }, 'HEAD')).toBeUndefined();
    expect(handlerFor({ POST: 'post' }, 'HEAD')).toBeUndefined();
  });

  it('only a method of the table: not one named like an Object.prototype member', () => {
    expect(handlerFor({ GET: 'get' }, 'constructor')).toBeUndefined();
    expect(handlerFor({ GET: 'get' }, '__proto__')).toBeUndefined();
    expect(handlerFor({ GET: 'get' }, 'TRACE')).toBeUndefined();
  });

  it('Allow lists the methods in table order, HEAD after GET unless refused', () => {
    expect(allowOf({ POST: 1, GET: 2 })).toBe('POST, GET, HEAD');
    expect(allowOf({ GET: 1, HEAD: undefined })).toBe('GET');
    expect(allowOf({ DELETE: 1 })).toBe('DELETE');
    const refused = methodNotAllowed({ POST: 1, GET: 2 }, 'TRACE', '/v1/orders');
    expect([refused.status, refused.code, refused.message, refused.headers]).toEqual([
      405,
      -1,
      'TRACE is not allowed on /v1/orders',
      { allow: 'POST, GET, HEAD' },
    ]);
  });
});
