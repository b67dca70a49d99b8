/**
 * `probeCassette`: a cassette's requests replayed against a fresh simulator, and every way its
 * answers and events depart from the recorded ones (docs/FIDELITY.md). The simulator runs on a
 * manual clock set from the cassette: before each recorded step the clock is moved to that step's
 * recorded time, so auctions open, lock and clear between the requests as they did when recorded.
 */
import type { CassetteEntry, CassetteHttp, CassetteJson, CassetteWs } from '../../contract/cassette.js';
import type { CassetteDocument } from '../cassette/read.js';
import { createSimulator, type Simulator } from '../simulator.js';
import { compareAnswers, sendRecorded } from './exchange.js';
import { IdMap } from './ids.js';
import { ignoreMatcher } from './ignore.js';
import { type Milestone, MilestoneFollower, recordedMilestones } from './milestones.js';
import { assignKeys, type ProbeKeyAssignment } from './keys.js';
import type { ProbeOptions, ProbeReport } from './report.js';
import { probeStart } from './start.js';
import { recordedEvents, streamDifferences } from './streams.js';
import { ProbeSocket } from './ws-replay.js';

export type { ProbeKeyAssignment } from './keys.js';
export type { ProbeDifference, ProbeOptions, ProbeReport } from './report.js';

interface Step {
  line: number;
  at: number;
  entry: CassetteHttp | CassetteWs | Milestone;
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
  private readonly differences: ProbeReport['differences'] = [];
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
  /** Every wallet and bank account id of the simulator's entities. */
  private readonly knownIds: Set<string>;

  constructor(
    private readonly sim: Simulator,
    private readonly entries: readonly CassetteEntry[],
    private readonly options: ProbeOptions,
  ) {
    // Entities are fixed for a simulator's life: read once.
    this.entities = sim.getState().entities;
    this.knownIds = new Set(this.entities.flatMap((e) => [...e.wallets, ...e.fiatAccounts].map((a) => a.id)));
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
    // The recorded venue's clears and settlements, followed where the probe's clock lags them.
    for (const m of recordedMilestones(this.entries)) steps.push({ line: m.line, at: m.at, entry: m });
    // In the order sent (a line is written when its exchange ended); ties keep the file's order.
    steps.sort((a, b) => a.at - b.at || a.line - b.line);
    const follower = new MilestoneFollower(this.sim, this.ids);
    if (steps.some((s) => s.entry.kind === 'ws'))
      this.wsUrl = `${(await this.sim.listen({ host: '127.0.0.1', port: 0 })).wsUrl}/v1/match/ws`;
    try {
      for (const step of steps) {
        this.advanceTo(step.at);
        if (step.entry.kind === 'milestone') follower.follow(step.entry);
        else if (step.entry.kind === 'http') await this.exchange(step.line, step.entry);
        else await this.ws(step.line, step.entry);
      }
      const { clears, settlements } = follower.followed;
      if (clears + settlements > 0)
        this.notes.push(
          `${clears} clears and ${settlements} settlements made when the recording's market events showed them before the clock reached them (a venue whose time did not run as the wall clock's: a simulator moved by its controls)`,
        );
      this.advanceTo(end);
      const events = await this.compareStreams();
      const webhooks = this.entries.filter((e) => e.kind === 'webhook').length;
      if (webhooks > 0)
        this.notes.push(
          `${webhooks} webhook deliveries not probed: the probe compares REST answers and stream events`,
        );
      return this.report(start, events);
    } finally {
      follower.close();
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

  /**
   * A recorded wallet or bank account the simulator does not know (the sandbox's): the mapped
   * entity's own. One it knows is sent as recorded, another entity's included: a refusal of it is
   * part of what is compared.
   */
  private fallback(keyId: string | null) {
    const entity = this.entities.find((e) => e.name === this.keys.get(keyId ?? '')?.entity);
    return (field: string, value: string): string | undefined => {
      if (!entity || this.knownIds.has(value)) return undefined;
      let own: string | undefined;
      if (field === 'sourceWalletId') own = entity.wallets.find((w) => w.currency === 'USD')?.id;
      if (field === 'fiatAccountId') own = entity.fiatAccounts[0]?.id;
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
      const recorded = recordedEvents(this.entries, connection);
      total += recorded.length;
      const simulated = socket?.events ?? [];
      const where = `ws ${connection}${keyId === null ? '' : ` (${this.keys.get(keyId)?.entity ?? keyId})`}`;
      this.differences.push(...streamDifferences(recorded, simulated, line, where));
    }
    const orphans = new Set(
      this.entries.flatMap((e) => (e.kind === 'ws' && !this.sockets.has(e.connection) ? [e.connection] : [])),
    );
    for (const connection of orphans)
      this.notes.push(
        `ws ${connection}: the cassette holds no open line for it; its frames were not compared`,
      );
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
