/**
 * Mutations of a whole JSON document (a snapshot, a scenario) for the fuzz driver's restore and
 * scenario families: one change per case at a seeded place, made by copying only the objects on
 * the way to it, so a 3 MB snapshot is neither cloned nor changed for the next case.
 */
import type { Pick } from './fuzz-pick.js';

export type Path = readonly (string | number)[];
type Node = Record<string, unknown> | unknown[];

/** JSON.stringify writes -0 as 0: the leaf is this marker, swapped for `-0` in the text. */
export const NEGATIVE_ZERO = '\u0000fuzz-negative-zero\u0000';

/** The text of a mutated document, with the markers put back as what they stand for. */
export function documentText(doc: unknown): string {
  const text = JSON.stringify(doc) ?? 'null';
  return text.includes('fuzz-negative-zero') ? text.split(JSON.stringify(NEGATIVE_ZERO)).join('-0') : text;
}

const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object';

export function getAt(root: unknown, path: Path): unknown {
  let at = root;
  for (const key of path) at = isNode(at) ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

/** A key set as data: `__proto__` included (plain assignment would change the prototype). */
function put(node: Node, key: string | number, value: unknown): void {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `root` with `change` applied to a copy of the container at `path` (copies along the way only). */
export function changeAt(root: unknown, path: Path, change: (copy: Node) => void): unknown {
  const node = isNode(root) ? root : {};
  const copy: Node = Array.isArray(node) ? [...node] : { ...node };
  if (path.length === 0) change(copy);
  else {
    const [key, ...rest] = path as [string | number, ...Path];
    put(copy, key, changeAt((node as Record<string, unknown>)[key], rest, change));
  }
  return copy;
}

export const setAt = (root: unknown, path: Path, value: unknown): unknown =>
  path.length === 0
    ? value
    : changeAt(root, path.slice(0, -1), (c) => put(c, path[path.length - 1] as string | number, value));

function keysOf(node: Node): (string | number)[] {
  return Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
}

/**
 * A seeded walk from `from` down the document: at each level a random child, stopping at a leaf,
 * at an empty container, or (with `stop`) early, so containers are hit as well as leaves.
 */
export function walk(root: unknown, p: Pick, from: Path = [], stop = 0.1): Path {
  const path = [...from];
  let at = getAt(root, path);
  while (isNode(at)) {
    const keys = keysOf(at);
    if (!keys.length || (path.length > from.length && p.chance(stop))) break;
    const key = p.one(keys);
    path.push(key);
    at = (at as Record<string, unknown>)[key];
  }
  return path;
}

/** A walk that ends at a container of the wanted kind (the deepest one on a random walk). */
export function walkTo(root: unknown, p: Pick, want: 'array' | 'object', from: Path = []): Path | undefined {
  const path = walk(root, p, from, 0);
  for (let n = path.length; n >= 0; n--) {
    const at = getAt(root, path.slice(0, n));
    if (want === 'array' ? Array.isArray(at) : isNode(at) && !Array.isArray(at)) return path.slice(0, n);
  }
  return undefined;
}

function deep(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** Leaf values no document holds legitimately; `original` lets a number turn into its own string. */
export function hostileLeaf(p: Pick, original?: unknown): [string, unknown] {
  const kinds: [string, () => unknown][] = [
    ['negative', () => p.one([-1, -123_456])],
    ['max-safe', () => 2 ** 53 - 1],
    ['beyond-safe', () => 2 ** 53 + 2],
    ['negative-zero', () => NEGATIVE_ZERO],
    ['1e308', () => 1e308],
    ['float', () => p.one([0.5, 1.25, 0.1 + 0.2])],
    ['huge-string', () => 'x'.repeat(p.one([5_000, 200_000]))],
    ['html', () => '<script>alert(1)</script><img src=x onerror=alert(2)>'],
    ['number-as-string', () => (typeof original === 'number' ? String(original) : '12345')],
    ['null', () => null],
    ['empty-array', () => []],
    ['empty-object', () => ({})],
    ['boolean', () => p.chance(0.5)],
    ['odd-text', () => p.text(30)],
    ['deep', () => deep(p.one([20, 62]))],
  ];
  const [name, make] = p.one(kinds);
  return [name, make()];
}

/** A key no schema has, `__proto__` and friends included. */
export const unknownKey = (p: Pick): string =>
  p.one(['extra', '__proto__', 'constructor', 'prototype', 'toString', 'x'.repeat(300), p.text(8) || 'k']);

/** A random uuid-shaped id that no document holds. */
export const strangerId = (p: Pick): string => p.one([p.uuid(), '00000000-0000-4000-8000-00000000dead']);

export const GENERIC_KINDS = 6;

/** The generic changes any document takes; `kind` (0..GENERIC_KINDS-1) picks one, else the seed does. */
export function genericMutation(doc: unknown, p: Pick, from: Path = [], kind?: number): [string, unknown] {
  switch (kind ?? p.int(GENERIC_KINDS)) {
    case 0:
    case 1: {
      const path = walk(doc, p, from);
      const [name, value] = hostileLeaf(p, getAt(doc, path));
      return [`${name} at ${path.join('.')}`, setAt(doc, path, value)];
    }
    case 2: {
      const path = walkTo(doc, p, 'object', from) ?? [];
      const keys = Object.keys((getAt(doc, path) as object) ?? {});
      if (!keys.length) return ['nothing to delete', doc];
      const key = p.one(keys);
      return [`delete ${[...path, key].join('.')}`, changeAt(doc, path, (c) => delete (c as never)[key])];
    }
    case 3: {
      const path = walkTo(doc, p, 'object', from) ?? [];
      const key = unknownKey(p);
      const [name, value] = hostileLeaf(p);
      return [
        `unknown key ${key.slice(0, 20)}=${name} at ${path.join('.')}`,
        setAt(doc, [...path, key], value),
      ];
    }
    case 4: {
      const path = walkTo(doc, p, 'array', from);
      if (!path) return ['no array', doc];
      const n = (getAt(doc, path) as unknown[]).length;
      const keep = p.one([0, 1, Math.floor(n / 2), Math.max(0, n - 1)]);
      return [
        `truncate ${path.join('.')} ${n}->${keep}`,
        changeAt(doc, path, (c) => ((c as unknown[]).length = keep)),
      ];
    }
    default: {
      const path = walk(doc, p, from);
      const depth = p.one([63, 64, 65, 200]);
      return [`nest ${depth} at ${path.join('.')}`, setAt(doc, path, deep(depth))];
    }
  }
}
