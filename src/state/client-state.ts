import type { Withdrawal } from '../generated/models.js';
import type { VenueStream } from '../stream/api.js';
import type { AccountMirror } from './api.js';

// What one client shares between its resources for keeping state: the mirrors and streams it has
// open (a wait listens on them instead of opening its own) and the withdrawals its create calls
// made (a mirror's only source for withdrawals besides events: the venue has no GET for them).

/** Not exported by any entry. */
export class ClientState {
  readonly #mirrors = new Set<AccountMirror>();
  readonly #streams = new Set<VenueStream>();
  readonly #created = new Set<(withdrawal: Withdrawal) => void>();

  addMirror(mirror: AccountMirror): void {
    this.#mirrors.add(mirror);
  }

  removeMirror(mirror: AccountMirror): void {
    this.#mirrors.delete(mirror);
  }

  /** Follows an open stream until it closes. */
  addStream(stream: VenueStream): void {
    if (stream.state === 'closed') return;
    this.#streams.add(stream);
    const off = stream.on('state', ({ state }) => {
      if (state !== 'closed') return;
      this.#streams.delete(stream);
      off();
    });
  }

  /** The most recent open mirror, else the most recent open stream: where a wait can listen. */
  shared(): AccountMirror | VenueStream | undefined {
    const mirror = [...this.#mirrors].pop();
    if (mirror) return mirror;
    return [...this.#streams].filter((s) => s.state !== 'closed').pop();
  }

  /** A create call of this client answered with this withdrawal. */
  withdrawalCreated(withdrawal: Withdrawal): void {
    for (const listener of [...this.#created]) listener(withdrawal);
  }

  /** Listens to withdrawals this client creates; returns the unsubscribe function. */
  onWithdrawalCreated(listener: (withdrawal: Withdrawal) => void): () => void {
    this.#created.add(listener);
    return () => this.#created.delete(listener);
  }
}
