/**
 * `probeCassette`: a cassette's requests replayed against a fresh simulator, and every way its
 * answers and events depart from the recorded ones (docs/FIDELITY.md). The simulator runs on a
 * manual clock set from the cassette: before each recorded step the clock is moved to that step's
 * recorded time, so auctions open, lock and clear between the requests as they did when recorded.
 */
import type { CassetteEntry, CassetteHttp, CassetteJson, CassetteWs } from '../../contract/cassette.js';
import type { CassetteDocument } from '../cassette/read.js';
import type { ScenarioDocument } from '../scenario/types.js';
import { createSimulator, type Simulator } from '../simulator.js';
import { compareEvents, type StreamEvent } from './events.js';
import { compareAnswers, sendRecorded } from './exchange.js';
import { IdMap } from './ids.js';
import { ignoreMatcher } from './ignore.js';
import { assignKeys, type ProbeKeyAssignment } from './keys.js';
import { compareShapes } from './shape.js';
import { probeStart } from './start.js';
import { ProbeSocket } from './ws-replay.js';

export type { ProbeKeyAssignment } from './keys.js';

/** What to probe a cassette with. */
export interface ProbeOptions {
  /** Paths expected to differ (`data.createdAt`, `**.ts`, `events.market`): see docs/FIDELITY.md. */
  ignore?: readonly string[];
  /** A scenario for the fresh simulator (its entities can stand for the recording's keys). */
  scenario?: ScenarioDocument;
  /** Key id -> entity name, for the recording's keys that do not name an entity. */
  as?: Readonly<Record<string, string>>;
}

/** One way the simulator departs from the recording. */
export interface ProbeDifference {
  /** The cassette line of the exchange, or of the connection's `open`. */
  line: number;
  /** `POST /v1/match/orders` (the recorded path), or `ws 1 (burner)` for a connection's events. */
  where: string;
  /**
   * `status` / `code`: the HTTP status or the venue code of an error body; `missing` / `extra`: a
   * field (or an event kind) recorded but not simulated, or simulated but not recorded; `type`: a
   * field of another JSON type; `order`: an event kind that came at another place.
   */
  kind: 'status' | 'code' | 'missing' | 'extra' | 'type' | 'order';
  /** What `--ignore` takes: `status`, `code`, a body path (`data.fill`), `events.<channel>.<event>`. */
  path: string;
  /** The recorded side: a status, a code, a JSON type (`string`, `object|null`), event positions (`#3`), or `-`. */
  recorded: string;
  /** The simulated side, as `recorded`. */
  simulated: string;
}

/** What {@link probeCassette} found: the differences left after the ignores, and how it mapped the recording. */
export interface ProbeReport {
  /** True when no difference is left after the ignores. */
  alike: boolean;
  /** REST attempts compared (those with a recorded response). */
  exchanges: number;
  /** Recorded stream events compared. */
  events: number;
  /** Every difference not ignored: the exchanges' in the order sent, then each connection's events. */
  differences: ProbeDifference[];
  /** Differences the ignore paths silenced. */
  ignored: number;
  /** The simulator's start (ISO 8601). */
  startTime: string;
  /** The entity standing for each key id of the recording. */
  keys: ProbeKeyAssignment[];
  /** Recorded ids the requests were rewritten with, recorded -> simulated. */
  ids: {
    /** The id in the recording. */
    recorded: string;
    /** The simulator's id sent in its place. */
    simulated: string;
  }[];
  /** What the probe could not compare, and why. */
  notes: string[];
}

interface Step {
  line: number;
  at: number;
  entry: CassetteHttp | CassetteWs;
}

/** Replays `cassette` against a fresh simulator and reports every difference. */
export async function probeCassette(
  cassette: CassetteDocument,
  options: ProbeOptions = {},
): Promise<ProbeReport> {
  const entries = cassette.entries;
  const start = probeStart(entries, cassette.header.createdAt);
  const sim = createSimulator({
    clock: 'manual',
    startTime: start,
    ...(options.scenario ? { scenario: options.scenario } : {}),
  });
  try {
    return await new ProbeRun(sim, entries, options).run(start);
  } finally {
    await sim.close();
  }
}

class ProbeRun {
  private readonly ids = new IdMap();
  private readonly keys: Map<string, ProbeKeyAssignment>;
  private readonly differences: ProbeDifference[] = [];
  private readonly notes: string[] = [];
  private readonly sockets = new Map<
    number,
    { socket: ProbeSocket | undefined; line: number; keyId: string | null }
  >();
  /** The last seq per key id and channel, from the probe's earlier connections (for a recorded `since`). */
  private readonly seqs = new Map<string, Map<string, number>>();
  private wsUrl: string | undefined;
  private exchanges = 0;
  private readonly entities: ReturnType<Simulator['getState']>['entities'];

  constructor(
    private readonly sim: Simulator,
    private readonly entries: readonly CassetteEntry[],
    private readonly options: ProbeOptions,
  ) {
    // Entities are fixed for a simulator's life: read once.
    this.entities = sim.getState().entities;
    this.keys = assignKeys(
      entries,
      this.entities.map((e) => e.name),
      options.as,
    );
  }

  async run(start: number): Promise<ProbeReport> {
    const steps: Step[] = [];
    let end = start;
    this.entries.forEach((entry, i) => {
      const at = Date.parse(entry.at);
      end = Math.max(end, at);
      if (entry.kind === 'http' || (entry.kind === 'ws' && entry.event !== 'receive'))
        steps.push({ line: i + 2, at, entry });
    });
    // In the order sent (a line is written when its exchange ended); ties keep the file's order.
    steps.sort((a, b) => a.at - b.at || a.line - b.line);
    if (steps.some((s) => s.entry.kind === 'ws'))
      this.wsUrl = `${(await this.sim.listen({ host: '127.0.0.1', port: 0 })).wsUrl}/v1/match/ws`;
    try {
      for (const step of steps) {
        this.advanceTo(step.at);
        if (step.entry.kind === 'http') await this.exchange(step.line, step.entry);
        else await this.ws(step.line, step.entry);
      }
      this.advanceTo(end);
      const events = await this.compareStreams();
      const webhooks = this.entries.filter((e) => e.kind === 'webhook').length;
      if (webhooks > 0)
        this.notes.push(
          `${webhooks} webhook deliveries not probed: the probe compares REST answers and stream events`,
        );
      return this.report(start, events);
    } finally {
      for (const { socket } of this.sockets.values()) await socket?.close().catch(() => {});
    }
  }

  private advanceTo(at: number): void {
    const now = this.sim.now();
    if (at > now) this.sim.advance(at - now);
  }

  private apiKey(keyId: string | null): string | null {
    const entity = keyId === null ? undefined : this.keys.get(keyId)?.entity;
    if (entity === undefined) return null;
    return this.entities.find((e) => e.name === entity)?.apiKey ?? null;
  }

  /** A recorded wallet or bank account the simulator does not know: the mapped entity's own. */
  private fallback(keyId: string | null) {
    const entity = this.entities.find((e) => e.name === this.keys.get(keyId ?? '')?.entity);
    return (field: string, value: string): string | undefined => {
      if (!entity) return undefined;
      let own: string | undefined;
      if (field === 'sourceWalletId' && !entity.wallets.some((w) => w.id === value))
        own = entity.wallets.find((w) => w.currency === 'USD')?.id;
      if (field === 'fiatAccountId' && !entity.fiatAccounts.some((f) => f.id === value))
        own = entity.fiatAccounts[0]?.id;
      if (own !== undefined) this.ids.set(value, own);
      return own;
    };
  }

  private async exchange(line: number, entry: CassetteHttp): Promise<void> {
    const where = `${entry.request.method} ${entry.request.path}`;
    const answer = await sendRecorded(
      this.sim,
      entry,
      this.apiKey(entry.keyId),
      this.ids,
      this.fallback(entry.keyId),
    );
    if (entry.response === null) {
      this.notes.push(
        `line ${line}: ${where} sent, not compared: no response was recorded (${entry.error ?? 'no error given'})`,
      );
      return;
    }
    this.exchanges++;
    this.ids.learn(entry.response.body, answer.body);
    for (const d of compareAnswers(entry.response, answer)) this.differences.push({ line, where, ...d });
  }

  private async ws(line: number, entry: CassetteWs): Promise<void> {
    const held = this.sockets.get(entry.connection);
    if (entry.event === 'open') {
      const record = { socket: undefined as ProbeSocket | undefined, line, keyId: entry.keyId };
      this.sockets.set(entry.connection, record);
      const apiKey = this.apiKey(entry.keyId);
      try {
        if (apiKey === null) throw new Error('the recording names no API key for it');
        record.socket = await ProbeSocket.open(this.wsUrl as string, await this.ticket(apiKey));
      } catch (err) {
        this.notes.push(
          `line ${line}: ws ${entry.connection} could not be opened (${err instanceof Error ? err.message : String(err)}): its recorded events count as missing`,
        );
      }
      return;
    }
    const socket = held?.socket;
    if (!socket) return;
    if (entry.event === 'send') await socket.send(this.rewriteFrame(entry.keyId, entry.frame ?? null));
    else if (entry.event === 'close') {
      await socket.close();
      this.keepSeqs(entry.keyId, socket);
    }
  }

  private async ticket(apiKey: string): Promise<string> {
    const res = await this.sim.handle(
      new Request('http://probe.sim/v1/match/ws/ticket', {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}` },
      }),
    );
    const body = (await res.json()) as { data?: { ticket?: string } };
    if (!body.data?.ticket) throw new Error(`no ticket: ${res.status}`);
    return body.data.ticket;
  }

  private keepSeqs(keyId: string | null, socket: ProbeSocket): void {
    const seqs = this.seqs.get(keyId ?? '') ?? new Map<string, number>();
    for (const [channel, seq] of socket.lastSeq) seqs.set(channel, seq);
    this.seqs.set(keyId ?? '', seqs);
  }

  /**
   * A recorded `since` is a seq of the recorded venue's: it becomes the last seq this key's earlier
   * probe connection saw on the channel, or is left out when there was none (a fresh subscription).
   */
  private rewriteFrame(keyId: string | null, frame: CassetteJson): CassetteJson {
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame) || !('since' in frame))
      return frame;
    const { since: _since, ...rest } = frame;
    const seq = this.seqs.get(keyId ?? '')?.get(String(frame.channel));
    return seq === undefined ? rest : { ...rest, since: seq };
  }

  /** Each connection's recorded events against the probe's; returns how many were recorded. */
  private async compareStreams(): Promise<number> {
    let total = 0;
    for (const [connection, { socket, line, keyId }] of this.sockets) {
      await socket?.drain();
      const recorded = this.entries
        .filter(
          (e): e is CassetteWs => e.kind === 'ws' && e.connection === connection && e.event === 'receive',
        )
        .map((e) => e.frame as Record<string, CassetteJson> | null)
        .filter((f) => f?.type === 'event' && typeof f.channel === 'string' && typeof f.event === 'string')
        .map((f) => ({ channel: String(f?.channel), event: String(f?.event), data: f?.data }) as StreamEvent);
      total += recorded.length;
      const simulated = socket?.events ?? [];
      const where = `ws ${connection}${keyId === null ? '' : ` (${this.keys.get(keyId)?.entity ?? keyId})`}`;
      const { differences, pairs } = compareEvents(recorded, simulated);
      for (const d of differences)
        this.differences.push({
          line,
          where,
          kind: d.kind,
          path: `events.${d.channel}.${d.event}`,
          recorded: d.recorded.length ? d.recorded.map((n) => `#${n}`).join(', ') : '-',
          simulated: d.simulated.length ? d.simulated.map((n) => `#${n}`).join(', ') : '-',
        });
      // The data of the events paired, by shape: each difference once per event kind and path.
      const seen = new Set<string>();
      for (const [i, j] of pairs) {
        const [r, s] = [recorded[i] as StreamEvent, simulated[j] as StreamEvent];
        if (r.event === 'auction.snapshot') continue;
        for (const d of compareShapes(r.data, s.data, 'data')) {
          const key = `${r.channel} ${r.event} ${d.kind} ${d.path}`;
          if (seen.has(key)) continue;
          seen.add(key);
          this.differences.push({ line, where: `${where} #${i + 1} ${r.channel} ${r.event}`, ...d });
        }
      }
    }
    return total;
  }

  private report(start: number, events: number): ProbeReport {
    const ignores = ignoreMatcher(this.options.ignore ?? []);
    const kept = this.differences.filter((d) => !ignores(d.path));
    return {
      alike: kept.length === 0,
      exchanges: this.exchanges,
      events,
      differences: kept,
      ignored: this.differences.length - kept.length,
      startTime: new Date(start).toISOString(),
      keys: [...this.keys.values()],
      ids: this.ids.pairs(),
      notes: this.notes,
    };
  }
}
