import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/**
 * A WebSocket proxy in front of the simulator's socket that forwards every frame except the
 * account channel's events (it counts them): a stream through it subscribes and stays up, and
 * never hears of an order change.
 */
export async function accountEventDroppingProxy(
  upstream: string,
): Promise<{ wsUrl: string; dropped: () => number; close(): Promise<void> }> {
  let dropped = 0;
  const server: Server = createServer((_req, res) => {
    res.writeHead(404);
    res.end();
  });
  const wss = new WebSocketServer({ server, handleProtocols: (protocols) => [...protocols][0] ?? false });
  wss.on('connection', (client, req) => {
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const up = new WebSocket(`${upstream}${req.url ?? ''}`, protocols);
    const early: string[] = [];
    client.on('message', (data) => {
      if (up.readyState === WebSocket.OPEN) up.send(String(data));
      else early.push(String(data));
    });
    up.on('open', () => {
      for (const text of early.splice(0)) up.send(text);
    });
    up.on('message', (data) => {
      const text = String(data);
      const frame = JSON.parse(text) as { type?: string; channel?: string };
      if (frame.type === 'event' && frame.channel === 'account') {
        dropped += 1;
        return;
      }
      client.send(text);
    });
    up.on('close', () => client.terminate());
    up.on('error', () => client.terminate());
    client.on('close', () => up.terminate());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    dropped: () => dropped,
    close: async () => {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
