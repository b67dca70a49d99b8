/**
 * Frames of the `service-match.v1` WebSocket protocol (docs/PROTOCOL.md, "## WebSocket").
 * Part of the contract layer: the simulator's server and the client's stream both import these
 * types and names from here, so the two sides cannot drift into two protocols.
 */

/**
 * Our spec's subprotocol name: what the simulator selects and the client offers unless configured
 * otherwise (the venue's owner publishes the same protocol as `circle-match.v1`).
 */
export const SUBPROTOCOL = 'service-match.v1';
export const TICKET_PROTOCOL_PREFIX = 'ticket.';

/** An HTTP token (RFC 6455 4.1: each subprotocol value is one), not mistakable for the ticket value. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The rule a configured subprotocol name follows, as both sides report it. */
export const SUBPROTOCOL_RULE =
  'must be an HTTP token (letters, digits, .-_ and the like) not starting with "ticket."';

export function isSubprotocolName(name: unknown): name is string {
  return (
    typeof name === 'string' &&
    name.length <= 128 &&
    TOKEN.test(name) &&
    !name.startsWith(TICKET_PROTOCOL_PREFIX)
  );
}
export const WS_PATH = '/v1/match/ws';

/** The stream's channels: `market` (the auction cycle, for everyone) and `account` (the caller's own). */
export type Channel = 'market' | 'account';

/** A client frame's optional `id`, echoed on the answer: a number, or a string of at most 64 characters. */
export type FrameId = number | string;

export function isFrameId(value: unknown): value is FrameId {
  return (
    (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.length <= 64)
  );
}

export interface SubscribeFrame {
  op: 'subscribe';
  channel: Channel;
  id?: FrameId;
  /** Last seq the client has seen on this channel; the server replays what came after it. */
  since?: number;
}
export interface UnsubscribeFrame {
  op: 'unsubscribe';
  channel: Channel;
  id?: FrameId;
}
export interface PingFrame {
  op: 'ping';
  id?: FrameId;
}
export type ClientFrame = SubscribeFrame | UnsubscribeFrame | PingFrame;

/**
 * `replay`: absent when no `since` was sent; 'ok' when every event after `since` follows this
 * frame; 'unavailable' when the buffer no longer holds them (or `since` is from another server
 * life), in which case the client must resync from `seq` onward.
 */
export interface SubscribedFrame {
  type: 'subscribed';
  channel: Channel;
  id?: FrameId;
  seq: number;
  ts: string;
  since?: number;
  replay?: 'ok' | 'unavailable';
}
export interface UnsubscribedFrame {
  type: 'unsubscribed';
  channel: Channel;
  id?: FrameId;
}
export interface PongFrame {
  type: 'pong';
  id?: FrameId;
  ts: string;
}
/**
 * The `code` of an error frame: why the server could not act on a client frame (the socket stays
 * open). Not the error catalog's `ErrorCode` (the venue's numeric REST codes).
 */
export type ErrorFrameCode =
  | 'invalid_json'
  | 'invalid_frame'
  | 'unknown_op'
  | 'invalid_channel'
  | 'invalid_since';
export interface ErrorFrame {
  type: 'error';
  code: ErrorFrameCode | (string & {});
  message: string;
  id?: FrameId;
}
export interface EventFrame {
  type: 'event';
  channel: Channel;
  seq: number;
  event: string;
  data: unknown;
  ts: string;
}
/**
 * The server's first frame on every socket, sent as soon as it opens; clients subscribe after it.
 * `protocol`: the subprotocol the server selected. `heartbeatMs`: its ping interval (absent when it
 * sends none), so a client knows how long a silent socket may still be alive.
 */
export interface HelloFrame {
  type: 'hello';
  protocol: string;
  ts: string;
  heartbeatMs?: number;
}
export type ServerFrame =
  | HelloFrame
  | SubscribedFrame
  | UnsubscribedFrame
  | PongFrame
  | ErrorFrame
  | EventFrame;
