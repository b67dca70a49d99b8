/**
 * `/_sim/ui/events`, shared by every dashboard of one server (issue 33): one `onEvent` listener
 * however many pages are open, each batch serialised and encoded once and the same bytes written to
 * every client, at most `maxClients` clients (beyond: 503), and a client whose unwritten data passes
 * `maxBufferedBytes` dropped as the WebSocket hub drops a slow socket (the page reconnects).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimulatorEvent } from '../engine/types.js';
import { features, type UiSimulator } from './ui-simulator.js';

/** Dashboard clients one server streams to at once, unless `uiClients` says otherwise. */
export const DEFAULT_UI_CLIENTS = 100;
/**
 * Unwritten bytes after which a dashboard client is dropped, unless `uiMaxBufferedBytes` says
 * otherwise. A stream carries at most 10 batches of 50 summaries a second (under 100 KB), and the
 * kernel holds the first MiBs of a socket: a page this far behind has read nothing for tens of
 * seconds.
 */
export const DEFAULT_UI_BUFFERED_BYTES = 256 * 1024;

/** How often buffered events go out: a burst (a 10,000-order clear) becomes one message. */
const FLUSH_MS = 100;
/** Events of one message shown in the log; the rest are counted, not sent. */
const MAX_EVENTS_PER_FLUSH = 50;
/** A comment line now and then keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;
const KEEPALIVE = Buffer.from(': keepalive\n\n');
/** Clients written to per turn of the event loop (see `writeOut`). */
const WRITE_SLICE = 25;

export interface UiStreamOptions {
  /** Clients streamed to at once; the next is answered 503. Default {@link DEFAULT_UI_CLIENTS}. */
  maxClients?: number;
  /** A client whose unwritten data passes this is dropped. Default {@link DEFAULT_UI_BUFFERED_BYTES}. */
  maxBufferedBytes?: number;
}

/** An event or a control signal waiting for the next batch (summarised only if still among the last 50). */
type Pending = { event: SimulatorEvent } | { control: string };

/** Checks the two listen options (a RangeError naming the option, as listen's other checks do). */
function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be an integer >= 1`);
  return value;
}

/** One line of the log: names and ids only, never a key or a ticket. */
function summarize(p: Pending): Record<string, unknown> {
  if ('control' in p) return { channel: 'control', event: p.control };
  const e = p.event;
  const d = e.data as Record<string, unknown>;
  if (e.channel === 'market')
    return { channel: e.channel, event: e.event, auctionId: d.auctionId, phase: d.phase };
  const out: Record<string, unknown> = { channel: e.channel, event: e.event, entityId: e.entityId };
  for (const key of ['orderId', 'withdrawalId', 'status', 'auctionId'])
    if (typeof d[key] === 'string' || typeof d[key] === 'number') out[key] = d[key];
  return out;
}

export class UiEventStream {
  private readonly maxClients: number;
  private readonly maxBufferedBytes: number;
  private readonly clients = new Set<ServerResponse>();
  // The last MAX_EVENTS_PER_FLUSH events since the last batch, oldest first, and how many there were.
  private pending: Pending[] = [];
  private count = 0;
  private timer: NodeJS.Timeout | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  // Chunks not yet written to every client, oldest first, and whether writeOut is working on them.
  private outbox: Buffer[] = [];
  private writing = false;

  /** Throws a RangeError naming `uiClients` or `uiMaxBufferedBytes` when one is not an integer >= 1. */
  constructor(
    private readonly sim: UiSimulator,
    options: UiStreamOptions = {},
  ) {
    this.maxClients = positiveInteger(options.maxClients, DEFAULT_UI_CLIENTS, 'uiClients');
    this.maxBufferedBytes = positiveInteger(
      options.maxBufferedBytes,
      DEFAULT_UI_BUFFERED_BYTES,
      'uiMaxBufferedBytes',
    );
  }

  get size(): number {
    return this.clients.size;
  }

  /** Answers one `GET /_sim/ui/events`: the stream (200), or 503 past the cap; returns the status. */
  serve(req: IncomingMessage, res: ServerResponse, extra: Record<string, string>): number {
    const headers = {
      ...extra,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    };
    // A HEAD has no body to stream: it is answered at once and takes no client's place.
    if (req.method === 'HEAD') {
      res.writeHead(200, headers);
      res.end();
      return 200;
    }
    if (this.clients.size >= this.maxClients) {
      const message =
        `The dashboard's event stream already has ${this.maxClients} clients, its limit: close one, ` +
        'or raise it with --ui-clients (the uiClients option of listen())';
      res.writeHead(503, { ...extra, 'content-type': 'application/json', 'retry-after': '5' });
      res.end(JSON.stringify({ code: -1, message }));
      return 503;
    }
    res.writeHead(200, headers);
    const hello = { now: new Date(this.sim.now?.() ?? Date.now()).toISOString(), features: features() };
    res.write(`event: hello\ndata: ${JSON.stringify(hello)}\n\n`);
    this.clients.add(res);
    if (this.clients.size === 1) this.start();
    req.socket.once('close', () => this.remove(res));
    return 200;
  }

  /** Ends every stream and stops listening (the server is closing). */
  close(): void {
    for (const res of this.clients) res.destroy();
    this.clients.clear();
    this.stop();
  }

  private remove(res: ServerResponse): void {
    if (this.clients.delete(res) && this.clients.size === 0) this.stop();
  }

  // Listening only while a client is open: with none, the engine need not build events for it.
  private start(): void {
    const offEvent = this.sim.onEvent((event) => this.push({ event }));
    const offControl = this.sim.onControl?.((signal) => this.push({ control: signal.type }));
    this.unsubscribe = () => {
      offEvent();
      offControl?.();
    };
    this.keepalive = setInterval(() => this.broadcast(KEEPALIVE), KEEPALIVE_MS).unref();
  }

  private stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.keepalive);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.count = 0;
    this.outbox = [];
  }

  // O(1) per event: an event is summarised (its data built) only if it is among a batch's last 50.
  private push(p: Pending): void {
    this.count++;
    if (this.pending.length >= MAX_EVENTS_PER_FLUSH) this.pending.shift();
    this.pending.push(p);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    this.timer = undefined;
    const data = JSON.stringify({ events: this.pending.map(summarize), count: this.count });
    this.pending = [];
    this.count = 0;
    this.broadcast(Buffer.from(`event: batch\ndata: ${data}\n\n`));
  }

  /** The same bytes to every client, after what was queued before them (one batch at a time). */
  private broadcast(chunk: Buffer): void {
    this.outbox.push(chunk);
    if (!this.writing) this.writeOut();
  }

  /**
   * Writes the oldest queued chunk WRITE_SLICE clients per turn of the event loop, then the next:
   * a batch to 1,000 pages is 1,000 socket writes (about 20 ms on a busy machine), and a REST
   * request must not wait behind all of them.
   */
  private writeOut(): void {
    const chunk = this.outbox[0];
    this.writing = chunk !== undefined;
    if (chunk === undefined) return;
    const targets = [...this.clients];
    let next = 0;
    const slice = () => {
      const end = Math.min(next + WRITE_SLICE, targets.length);
      for (; next < end; next++) this.send(targets[next] as ServerResponse, chunk);
      if (next < targets.length) {
        setImmediate(slice);
        return;
      }
      // stop() may have emptied the outbox meanwhile, and a new client queued another chunk.
      if (this.outbox[0] === chunk) this.outbox.shift();
      this.writeOut();
    };
    slice();
  }

  /** One client: written to, or dropped if it has not taken what it was sent (as the WebSocket hub does). */
  private send(res: ServerResponse, chunk: Buffer): void {
    if (res.destroyed || !this.clients.has(res)) return;
    if (res.writableLength > this.maxBufferedBytes) {
      // Bounded server memory: the page reconnects and reads every number afresh from /_sim/.
      res.destroy();
      return;
    }
    res.write(chunk);
  }
}
