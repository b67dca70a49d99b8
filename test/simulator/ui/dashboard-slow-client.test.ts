/**
 * Issue 33 (3): a dashboard page that stops reading costs the server at most `maxBufferedBytes`
 * (plus one batch): past it the page is dropped, as a slow WebSocket is, while a reading page goes
 * on receiving. The stream is driven by a fake simulator whose events carry large ids, so a few
 * batches pass what loopback's kernel buffers hide (about 4 MiB) in a second.
 */
import { createServer, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatorEvent } from '../../../src/simulator/engine/types.js';
import { UiEventStream } from '../../../src/simulator/ui/event-stream.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

class FakeSim {
  private readonly listeners = new Set<(e: SimulatorEvent) => void>();
  onEvent(l: (e: SimulatorEvent) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  emit(auctionId: string): void {
    for (const l of this.listeners) l({ channel: 'market', event: 'auction.opened', data: { auctionId } });
  }
}

/** A raw client of the stream; `paused` reads nothing at all after connecting. */
function client(port: number, paused: boolean): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('GET /_sim/ui/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      if (paused) socket.pause();
      resolve(socket);
    });
    cleanups.push(() => {
      socket.destroy();
    });
  });
}

describe('a dashboard page that stops reading', () => {
  it('is dropped past maxBufferedBytes while a reading page keeps receiving', async () => {
    const sim = new FakeSim();
    const stream = new UiEventStream(sim, { maxBufferedBytes: 256 * 1024 });
    const served: ServerResponse[] = [];
    let arrived: () => void = () => {};
    const server = createServer((req, res) => {
      stream.serve(req, res, {});
      served.push(res);
      arrived();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () => new Promise<void>((resolve) => server.close(() => resolve())),
      () => stream.close(),
    );
    const port = (server.address() as AddressInfo).port;

    const first = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    await client(port, true);
    await first;
    const slow = served[0] as ServerResponse;
    const dropped = new Promise<void>((resolve) => slow.once('close', resolve));
    let slowClosed = false;
    void dropped.then(() => {
      slowClosed = true;
    });

    // The reading page: every complete batch (its JSON ends with `"count":`) asks for the next one,
    // 50 events of 16 KiB ids (800 KB) each, until the slow page is gone.
    const pad = 'x'.repeat(16 * 1024);
    const emitBatch = () => {
      for (let i = 0; i < 50; i++) sim.emit(pad);
    };
    const END = ',"count":';
    let tail = '';
    let batches = 0;
    const afterDrop = new Promise<void>((resolve) => {
      void client(port, false).then((reader) =>
        reader.on('data', (chunk: Buffer) => {
          // `tail` carries the end of the last chunk over, so a mark split between chunks is seen.
          const s = tail + chunk.toString('latin1');
          let complete = 0;
          for (let i = s.indexOf(END); i >= 0; i = s.indexOf(END, i + 1))
            if (i + END.length > tail.length) complete++;
          if (s.includes('after-drop')) resolve();
          tail = s.slice(-16);
          batches += complete;
          if (complete > 0 && !slowClosed) emitBatch();
        }),
      );
    });
    await new Promise<void>((resolve) => {
      arrived = resolve;
    });
    emitBatch();
    await dropped;
    expect(stream.size).toBe(1);
    expect(batches).toBeGreaterThanOrEqual(1);
    // The reading page is still served: an event after the drop reaches it.
    sim.emit('after-drop');
    await afterDrop;
    expect(stream.size).toBe(1);
  });
});
