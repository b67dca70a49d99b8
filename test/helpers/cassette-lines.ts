// Hand-written cassettes for the replay tests: lines in the contract's shape (contract/cassette.ts).
import type { CassetteHttp, CassetteJson, CassetteRequest, CassetteWs } from 'match-venue/simulator';

export const HEADER = {
  kind: 'cassette',
  format: 'match-venue-cassette',
  version: 1,
  createdAt: '2026-11-29T12:00:00.000Z',
  sdk: 'match-venue-node/0.0.0',
} as const;

const AT = '2026-11-29T12:00:00.000Z';

/** One recorded REST attempt (`response` null: none came, `error` says why). */
export function httpLine(
  keyId: string | null,
  request: Partial<CassetteRequest> & { method: string; path: string },
  response: { status: number; body: CassetteJson } | null,
  extra: { attempt?: number; error?: string } = {},
): CassetteHttp {
  return {
    kind: 'http',
    at: AT,
    durationMs: 1,
    keyId,
    attempt: extra.attempt ?? 1,
    request: { query: {}, body: null, ...request },
    response,
    ...(extra.error === undefined ? {} : { error: extra.error }),
  };
}

/** One recorded WebSocket event of connection `connection`. */
export function wsLine(
  connection: number,
  keyId: string | null,
  event: CassetteWs['event'],
  extra: { frame?: CassetteJson; code?: number } = {},
): CassetteWs {
  return {
    kind: 'ws',
    at: AT,
    connection,
    keyId,
    event,
    ...(event === 'open' ? { url: 'ws://127.0.0.1/v1/match/ws', protocol: 'service-match.v1' } : {}),
    ...extra,
  };
}

/** NDJSON text of a cassette: the header, then `entries`. */
export function cassetteText(...entries: unknown[]): string {
  return `${[HEADER, ...entries].map((value) => JSON.stringify(value)).join('\n')}\n`;
}
