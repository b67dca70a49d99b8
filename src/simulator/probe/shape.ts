/**
 * The shape of a JSON body and the comparison of two: which fields are present and of which JSON
 * type, never their values (ids, times and amounts differ legitimately between a recording and a
 * probe). An array is compared by the union of its items' shapes, so two lists of different lengths
 * are alike when their items are; an empty list says nothing about its items' shape.
 */

/** A JSON value's type as the probe reports it. */
export type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

/** The union shape of the values seen at one path. */
interface Shape {
  types: Set<JsonType>;
  fields: Map<string, Shape>;
  /** The union of the items of every array seen here; undefined when every one was empty. */
  items: Shape | undefined;
}

export interface ShapeDifference {
  /** `missing`: recorded, not simulated; `extra`: simulated, not recorded; `type`: both, of other types. */
  kind: 'missing' | 'extra' | 'type';
  /** Where in the body (`data.fill.filledAmount`, `data.items[].status`). */
  path: string;
  recorded: string;
  simulated: string;
}

export function jsonType(value: unknown): JsonType {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

const emptyShape = (): Shape => ({ types: new Set(), fields: new Map(), items: undefined });

function addToShape(shape: Shape, value: unknown): Shape {
  const type = jsonType(value);
  shape.types.add(type);
  if (type === 'object') {
    for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
      const field = shape.fields.get(name) ?? emptyShape();
      shape.fields.set(name, addToShape(field, item));
    }
  } else if (type === 'array') {
    for (const item of value as unknown[]) shape.items = addToShape(shape.items ?? emptyShape(), item);
  }
  return shape;
}

const typesText = (types: Set<JsonType>) => [...types].sort().join('|');
const nonNull = (types: Set<JsonType>) => new Set([...types].filter((t) => t !== 'null'));
const join = (path: string, name: string) => (path ? `${path}.${name}` : name);

/**
 * Whether the types at a path differ. A null beside a type on one side is a nullable field seen in
 * two states (an order's `fill` before and after its clear, across a list's items), not a difference;
 * null alone against a type is one.
 */
function typesDiffer(recorded: Set<JsonType>, simulated: Set<JsonType>): boolean {
  const [r, s] = [nonNull(recorded), nonNull(simulated)];
  if (r.size === 0 || s.size === 0) return r.size !== s.size;
  return r.size !== s.size || [...r].some((t) => !s.has(t));
}

function compare(r: Shape, s: Shape, path: string, out: ShapeDifference[]): void {
  if (typesDiffer(r.types, s.types)) {
    // One difference for the path: its subtree is not compared (it is of another kind).
    out.push({
      kind: 'type',
      path: path || '(body)',
      recorded: typesText(r.types),
      simulated: typesText(s.types),
    });
    return;
  }
  if (r.types.has('object') && s.types.has('object')) {
    for (const [name, field] of r.fields) {
      const other = s.fields.get(name);
      if (other) compare(field, other, join(path, name), out);
      else
        out.push({
          kind: 'missing',
          path: join(path, name),
          recorded: typesText(field.types),
          simulated: '-',
        });
    }
    for (const [name, field] of s.fields)
      if (!r.fields.has(name))
        out.push({ kind: 'extra', path: join(path, name), recorded: '-', simulated: typesText(field.types) });
  }
  if (r.items && s.items) compare(r.items, s.items, `${path}[]`, out);
}

/** The shape differences between a recorded and a simulated value, paths under `root`. */
export function compareShapes(recorded: unknown, simulated: unknown, root = ''): ShapeDifference[] {
  const out: ShapeDifference[] = [];
  compare(addToShape(emptyShape(), recorded), addToShape(emptyShape(), simulated), root, out);
  return out;
}
