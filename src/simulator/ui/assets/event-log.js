// The event log's tail: one line per simulator event of the stream's batches, newest first.
import { idCell, shortIds } from './short-ids.js';

const LOG_MAX = 200;

/** Adds a batch's events to `list` (an <ol>), naming entities by `nameOf(entityId)` where known. */
export function logEvents(list, batch, nameOf) {
  for (const e of batch.events) {
    const li = document.createElement('li');
    li.append(e.event);
    if (e.entityId) li.append(' ', nameOf(e.entityId) || idCell(e.entityId, new Map()));
    for (const part of [e.auctionId && `auction ${e.auctionId}`, e.phase]) if (part) li.append(' ', part);
    if (e.orderId) li.append(' ', idCell(e.orderId, new Map()));
    if (e.status) li.append(' ', e.status);
    list.prepend(li);
  }
  if (batch.count > batch.events.length)
    list.firstChild?.append(` (+${batch.count - batch.events.length} more)`);
  while (list.children.length > LOG_MAX) list.lastChild.remove();
  // Shortened against every id the log shows, not this batch's alone: no two lines' ids read alike.
  const spans = [...list.querySelectorAll('.id')];
  const short = shortIds(spans.map((span) => span.title));
  for (const span of spans) span.textContent = short.get(span.title);
}
