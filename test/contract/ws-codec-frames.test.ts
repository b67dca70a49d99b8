// The frame half of the two-way socket codec (src/contract/ws-codec.ts): the client's frames
// encoded by the stream and decoded by the simulator's hub, the server's frames encoded by the hub
// and decoded by the stream. Decoding fails with a typed FrameError, in docs/PROTOCOL.md's order.
import { describe, expect, it } from 'vitest';
import {
  decodeClientFrame,
  decodeServerFrame,
  encodeClientFrame,
  encodeError,
  encodeEvent,
  encodeHello,
  encodePong,
  encodeSubscribed,
  encodeUnsubscribed,
} from '../../src/contract/ws-codec.js';
import type { ClientFrame } from '../../src/contract/ws-protocol.js';

const AT = Date.parse('2026-01-01T00:00:00.000Z');
const TS = '2026-01-01T00:00:00.000Z';

describe('client frames', () => {
  it('round-trips every client frame through text', () => {
    const frames: ClientFrame[] = [
      { op: 'subscribe', channel: 'market', id: 1 },
      { op: 'subscribe', channel: 'account', id: 'a', since: 41 },
      { op: 'subscribe', channel: 'account' },
      { op: 'unsubscribe', channel: 'market', id: 3 },
      { op: 'unsubscribe', channel: 'account' },
      { op: 'ping', id: 4 },
      { op: 'ping' },
    ];
    for (const frame of frames)
      expect(decodeClientFrame(encodeClientFrame(frame))).toEqual({ ok: true, frame });
    expect(encodeClientFrame({ op: 'subscribe', channel: 'account', id: 2, since: 41 })).toBe(
      '{"op":"subscribe","channel":"account","id":2,"since":41}',
    );
  });

  it('keeps only the fields of the protocol (an unknown field is dropped, not passed on)', () => {
    expect(decodeClientFrame('{"op":"ping","id":7,"extra":true}')).toEqual({
      ok: true,
      frame: { op: 'ping', id: 7 },
    });
    expect(decodeClientFrame('{"op":"unsubscribe","channel":"market","since":3}')).toEqual({
      ok: true,
      frame: { op: 'unsubscribe', channel: 'market' },
    });
  });

  it.each([
    ['binary', undefined, 'invalid_frame', 'frames must be JSON text', undefined],
    ['not JSON', '{op', 'invalid_json', 'frame is not valid JSON', undefined],
    ['an array', '[1]', 'invalid_frame', 'frame must be a JSON object', undefined],
    ['null', 'null', 'invalid_frame', 'frame must be a JSON object', undefined],
    ['a number', '5', 'invalid_frame', 'frame must be a JSON object', undefined],
    [
      'a 65-character id',
      JSON.stringify({ op: 'ping', id: 'x'.repeat(65) }),
      'invalid_frame',
      'id must be a number or a string of at most 64 characters',
      undefined,
    ],
    [
      'an object id',
      '{"op":"ping","id":{}}',
      'invalid_frame',
      'id must be a number or a string of at most 64 characters',
      undefined,
    ],
    [
      'an unknown op',
      '{"op":"publish","id":1}',
      'unknown_op',
      'op must be one of subscribe, unsubscribe, ping',
      1,
    ],
    ['no op', '{"id":"n"}', 'unknown_op', 'op must be one of subscribe, unsubscribe, ping', 'n'],
    [
      'an unknown channel',
      '{"op":"subscribe","channel":"orders","id":2}',
      'invalid_channel',
      'channel must be market or account',
      2,
    ],
    ['no channel', '{"op":"unsubscribe","id":2}', 'invalid_channel', 'channel must be market or account', 2],
    [
      'a negative since',
      '{"op":"subscribe","channel":"account","since":-1,"id":3}',
      'invalid_since',
      'since must be a non-negative integer',
      3,
    ],
    [
      'a fractional since',
      '{"op":"subscribe","channel":"account","since":1.5,"id":3}',
      'invalid_since',
      'since must be a non-negative integer',
      3,
    ],
    [
      'a string since',
      '{"op":"subscribe","channel":"account","since":"4"}',
      'invalid_since',
      'since must be a non-negative integer',
      undefined,
    ],
    [
      'an unsafe since',
      `{"op":"subscribe","channel":"market","since":${2 ** 53}}`,
      'invalid_since',
      'since must be a non-negative integer',
      undefined,
    ],
  ])('refuses %s with its error code', (_label, text, code, message, id) => {
    const error = id === undefined ? { code, message } : { code, message, id };
    expect(decodeClientFrame(text)).toEqual({ ok: false, error });
  });
});

describe('server frames', () => {
  it('encodes each frame as docs/PROTOCOL.md shows it, optional fields left out when absent', () => {
    expect(encodeHello('service-match.v1', AT, 30000)).toBe(
      `{"type":"hello","protocol":"service-match.v1","ts":"${TS}","heartbeatMs":30000}`,
    );
    expect(encodeHello('circle-match.v1', AT, 0)).toBe(
      `{"type":"hello","protocol":"circle-match.v1","ts":"${TS}"}`,
    );
    const base = { channel: 'account', seq: 57, at: AT } as const;
    expect(encodeSubscribed({ ...base, id: 1, since: undefined, replay: undefined })).toBe(
      `{"type":"subscribed","channel":"account","seq":57,"ts":"${TS}","id":1}`,
    );
    expect(encodeSubscribed({ ...base, id: 2, since: 41, replay: 'ok' })).toBe(
      `{"type":"subscribed","channel":"account","seq":57,"ts":"${TS}","id":2,"since":41,"replay":"ok"}`,
    );
    expect(encodeSubscribed({ ...base, id: undefined, since: 3, replay: 'unavailable' })).toBe(
      `{"type":"subscribed","channel":"account","seq":57,"ts":"${TS}","since":3,"replay":"unavailable"}`,
    );
    expect(encodeUnsubscribed('market', 3)).toBe('{"type":"unsubscribed","channel":"market","id":3}');
    expect(encodeUnsubscribed('market', undefined)).toBe('{"type":"unsubscribed","channel":"market"}');
    expect(encodePong(4, AT)).toBe(`{"type":"pong","ts":"${TS}","id":4}`);
    expect(encodePong(undefined, AT)).toBe(`{"type":"pong","ts":"${TS}"}`);
    expect(
      encodeError({ code: 'invalid_channel', message: 'channel must be market or account', id: 2 }),
    ).toBe('{"type":"error","code":"invalid_channel","message":"channel must be market or account","id":2}');
  });

  it("answers a refused client frame with the error frame of decodeClientFrame's error", () => {
    const decoded = decodeClientFrame('{"op":"subscribe","channel":"x","id":"q"}');
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(JSON.parse(encodeError(decoded.error))).toEqual({
      type: 'error',
      code: 'invalid_channel',
      message: 'channel must be market or account',
      id: 'q',
    });
  });

  it('encodes an event with its money as socket cents, and the stream decodes the frame back', () => {
    const data = { orderId: 'o', amount: { amount: '1000.50', currency: 'USD' }, fill: null };
    const text = encodeEvent('account', 9, 'order.updated', data, AT);
    expect(text).toBe(
      `{"type":"event","channel":"account","seq":9,"event":"order.updated","data":{"orderId":"o","amount":100050,"fill":null},"ts":"${TS}"}`,
    );
    // The publisher's data is shared with its other listeners: left as it was.
    expect(data.amount).toEqual({ amount: '1000.50', currency: 'USD' });
    expect(decodeServerFrame(text)).toEqual({
      ok: true,
      frame: {
        type: 'event',
        channel: 'account',
        seq: 9,
        event: 'order.updated',
        data: { orderId: 'o', amount: 100050, fill: null },
        ts: TS,
      },
    });
  });

  it('refuses to encode money that cannot travel as cents', () => {
    expect(() =>
      encodeEvent(
        'market',
        1,
        'auction.cleared',
        { matchedVolume: { amount: '1.001', currency: 'USD' } },
        AT,
      ),
    ).toThrow('auction.cleared: data.matchedVolume cannot travel as socket cents');
  });

  it('decodes any JSON object as a server frame and refuses other text with a typed error', () => {
    expect(decodeServerFrame('{"type":"later","x":1}')).toEqual({ ok: true, frame: { type: 'later', x: 1 } });
    expect(decodeServerFrame('nope')).toEqual({
      ok: false,
      error: { code: 'invalid_json', message: 'frame is not valid JSON' },
    });
    expect(decodeServerFrame('[]')).toEqual({
      ok: false,
      error: { code: 'invalid_frame', message: 'frame must be a JSON object' },
    });
  });
});
