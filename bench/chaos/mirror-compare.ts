/**
 * Field-by-field comparison of an account mirror with the venue, for the stream chaos's quiet
 * points (bench/chaos/mirror-check.ts). Each function returns what differs, as short readable
 * lines (empty: equal), so a report can show examples rather than a bare count.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AccountSummary, Order, Withdrawal } from '../../src/generated/models.js';
import type { MirrorWithdrawal } from '../../src/state/index.js';

/** The top-level fields of two records that differ, `name: mirror -> venue`. */
export function fieldDiff(mirror: object, venue: object): string[] {
  const a = mirror as Record<string, unknown>;
  const b = venue as Record<string, unknown>;
  const out: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!isDeepStrictEqual(a[key], b[key]))
      out.push(`${key}: ${JSON.stringify(a[key])} -> ${JSON.stringify(b[key])}`);
  }
  return out;
}

/**
 * The mirror's orders against the venue's: every venue order must be in view (unless the mirror
 * retired it, final, after its retention window: `retired`), equal field by field, and the view
 * holds nothing else.
 */
export function compareOrders(
  label: string,
  mirrored: readonly Order[],
  venue: readonly Order[],
  retired: ReadonlySet<string>,
): string[] {
  const held = new Map(mirrored.map((o) => [o.orderId, o]));
  const out: string[] = [];
  for (const order of venue) {
    const mine = held.get(order.orderId);
    held.delete(order.orderId);
    if (!mine) {
      if (!retired.has(order.orderId))
        out.push(`${label} order ${order.orderId} (${order.status}) not in view`);
      continue;
    }
    const diff = fieldDiff(mine, order);
    if (diff.length) out.push(`${label} order ${order.orderId}: ${diff.join('; ')}`);
  }
  for (const extra of held.values())
    out.push(`${label} order ${extra.orderId} (${extra.status}) in view, unknown to the venue`);
  return out;
}

/**
 * The summary: every field equal to the venue's current answer, except the activity window's
 * bounds, which are "now" wherever the mirror's copy was taken (a `balance.updated` or a REST read
 * some clock ticks ago): those must span the same window and end between the venue's last
 * `balance.updated` for the account (`lastEventTo`) and now.
 */
export function compareSummary(
  label: string,
  mirror: AccountSummary | undefined,
  venue: AccountSummary,
  lastEventTo: string | undefined,
): string[] {
  if (!mirror) return [`${label} summary missing`];
  const bounds = (s: AccountSummary) => ({
    from: Date.parse(s.activity.from),
    to: Date.parse(s.activity.to),
  });
  const m = bounds(mirror);
  const v = bounds(venue);
  const out: string[] = [];
  if (m.to - m.from !== v.to - v.from)
    out.push(`${label} summary activity window ${m.to - m.from} ms -> ${v.to - v.from} ms`);
  if (m.to > v.to || (lastEventTo !== undefined && m.to < Date.parse(lastEventTo)))
    out.push(
      `${label} summary activity.to ${mirror.activity.to} outside [${lastEventTo}, ${venue.activity.to}]`,
    );
  const pinned = (s: AccountSummary) => ({ ...s, activity: { ...s.activity, from: '', to: '' } });
  const diff = fieldDiff(pinned(mirror), pinned(venue));
  if (diff.length) out.push(`${label} summary: ${diff.join('; ')}`);
  return out;
}

export interface WithdrawalVerdict {
  differences: string[];
  /** Behind the venue but marked `stale` (a resync may have hidden its event; no GET to re-read). */
  staleBehind: number;
  compared: number;
}

/** The withdrawals: each the venue has in view and equal, unless stale (documented, counted apart). */
export function compareWithdrawals(
  label: string,
  mirrored: readonly MirrorWithdrawal[],
  venue: readonly Withdrawal[],
  retired: ReadonlySet<string>,
): WithdrawalVerdict {
  const held = new Map(mirrored.map((w) => [w.withdrawal.id, w]));
  const differences: string[] = [];
  let staleBehind = 0;
  for (const w of venue) {
    const mine = held.get(w.id);
    held.delete(w.id);
    if (!mine) {
      if (!retired.has(w.id)) differences.push(`${label} withdrawal ${w.id} (${w.status}) not in view`);
      continue;
    }
    const diff = fieldDiff(mine.withdrawal, w);
    if (diff.length === 0) continue;
    if (mine.stale) staleBehind++;
    else differences.push(`${label} withdrawal ${w.id}: ${diff.join('; ')}`);
  }
  for (const extra of held.values())
    differences.push(`${label} withdrawal ${extra.withdrawal.id} in view, unknown to the venue`);
  return { differences, staleBehind, compared: venue.length };
}
