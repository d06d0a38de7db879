import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionPool } from './connection-pool';

let listener: Server | undefined;
afterEach(() => {
  listener?.close();
  listener = undefined;
});

/**
 * An HTTP server fed by the pool, as under the supervisor (which accepts and hands sockets
 * over): `answer` writes within the server's own request listener, as the fast lane does.
 */
async function pooled() {
  const http = createHttpServer((_request, response) => {
    response.writeHead(200, { 'content-length': '2' });
    response.end('ok');
  });
  const pool = new ConnectionPool(http);
  listener = createServer((socket) => pool.accept(socket));
  await new Promise<void>((resolve) => listener!.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { pool, port };
}

function read(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('close', () => resolve(text));
  });
}

describe('ConnectionPool on shutdown', () => {
  it('tells a request that arrives while closing that its answer is the last one, even one answered at once', async () => {
    const { pool, port } = await pooled();
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const received = read(socket);
    // Half a request: the connection is busy, so the shutdown waits for it.
    socket.write('GET /api/slider/public HTTP/1.1\r\nHost: x\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = pool.close(5_000);
    socket.write('\r\n');
    const text = await received;
    await closed;
    expect(text).toMatch(/^HTTP\/1.1 200 OK/);
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    expect(pool.size).toBe(0);
  });
});
