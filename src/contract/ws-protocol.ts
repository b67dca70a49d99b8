/**
 * Frames of the `service-match.v1` WebSocket protocol (docs/PROTOCOL.md, "## WebSocket").
 * Part of the contract layer: the simulator's server and the client's stream both import these
 * types and names from here, so the two sides cannot drift into two protocols.
 */

export const SUBPROTOCOL = 'service-match.v1';
export const TICKET_PROTOCOL_PREFIX = 'ticket.';
export const WS_PATH = '/v1/match/ws';

export type Channel = 'market' | 'account';

export type FrameId = number | string;

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
export type ErrorCode = 'invalid_json' | 'invalid_frame' | 'unknown_op' | 'invalid_channel' | 'invalid_since';
export interface ErrorFrame {
  type: 'error';
  code: ErrorCode | (string & {});
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
export type ServerFrame = SubscribedFrame | UnsubscribedFrame | PongFrame | ErrorFrame | EventFrame;
