// Ids shortened for reading, never so short that two shown together read the same: the background
// market's ids share their first 8 characters (the auction) and their last 12 ("market"), so a
// fixed cut showed `00000003` for every one of an auction's orders.

const MIN = 8;

/** Characters `a` and `b` share from the start. */
function common(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Each id's shortest prefix of at least 8 characters that no other id of `ids` starts with (as
 * `git` abbreviates commits): a Map id -> text. Two different ids never get the same text: texts of
 * one length are prefixes of that length, and each is one no other id has.
 */
export function shortIds(ids) {
  const sorted = [...new Set(ids.filter(Boolean).map(String))].sort();
  const out = new Map();
  sorted.forEach((id, i) => {
    const before = i > 0 ? common(id, sorted[i - 1]) : 0;
    const after = i + 1 < sorted.length ? common(id, sorted[i + 1]) : 0;
    out.set(id, id.slice(0, Math.max(MIN, before + 1, after + 1)));
  });
  return out;
}

/** A cell's content for an id: the short text, the whole id in its title (hover, screen readers). */
export function idCell(id, short) {
  if (!id) return '–';
  const span = document.createElement('span');
  span.className = 'id';
  span.textContent = short.get(String(id)) ?? String(id);
  span.title = String(id);
  return span;
}
