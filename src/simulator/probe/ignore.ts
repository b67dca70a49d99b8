/**
 * `--ignore <path>`: what a probe is told to expect to differ. A path is dot-separated segments
 * naming where a difference is: `status`, `code`, a body path (`data.createdAt`, `data.items[].fill`,
 * an array's items written `[]`), or an event (`events.account.order.updated`). `*` stands for any one
 * segment (`*.ts`), `**` for any number of them (`**.createdAt`: every createdAt at any depth). A path
 * ignores its whole subtree: `data.pagination` ignores every difference at or below it.
 */

/** A difference's path as segments: `data.items[].fill` -> data, items, [], fill. */
export function pathSegments(path: string): string[] {
  return path
    .replace(/\[\]/g, '.[]')
    .split('.')
    .filter((s) => s.length > 0);
}

/** Whether `pattern` (segments, `*` and `**` allowed) matches a prefix of `segments`. */
function matchesPrefix(pattern: readonly string[], segments: readonly string[]): boolean {
  const [head, ...rest] = pattern;
  if (head === undefined) return true;
  if (head === '**') {
    for (let i = 0; i <= segments.length; i++) if (matchesPrefix(rest, segments.slice(i))) return true;
    return false;
  }
  const [first, ...tail] = segments;
  if (first === undefined) return false;
  return (head === '*' || head === first) && matchesPrefix(rest, tail);
}

/** The ignore list, compiled once: `ignores(path)` is true when one of the patterns covers `path`. */
export function ignoreMatcher(patterns: readonly string[]): (path: string) => boolean {
  const compiled = patterns.map(pathSegments).filter((p) => p.length > 0);
  return (path) => {
    const segments = pathSegments(path);
    return compiled.some((p) => matchesPrefix(p, segments));
  };
}
