import { connect, createServer, type Socket } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionPool } from '../process/connection-pool';
import { fixtures, multipart } from '../test/media-fixtures';
import { createTestApp, createUser, type TestApp } from '../test/test-app';

/** Finding 16.4: a slow client cannot keep its connection for good; a slow but moving upload can. */
const timeouts = { headersMs: 600, publicBodyMs: 600, bodyIdleMs: 600 };

let t: TestApp | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await t?.close();
  t = undefined;
});

/**
 * The app on a port of its own, or (as under `npm start`) behind a listener that hands each
 * connection over, the way the supervisor does.
 */
async function listening(handedOver = false): Promise<{ port: number; app: TestApp }> {
  t = await createTestApp({}, { requestTimeouts: timeouts });
  if (!handedOver) {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return { port: portOf(t.app.server), app: t };
  }
  const pool = new ConnectionPool(t.app.server);
  const door = createServer({ pauseOnConnect: true }, (socket) => pool.accept(socket));
  await new Promise<void>((resolve) => door.listen(0, '127.0.0.1', resolve));
  const app = t;
  const close = app.close.bind(app);
  app.close = async () => {
    pool.closeNow();
    await new Promise((resolve) => door.close(resolve));
    await close();
  };
  return { port: portOf(door), app };
}

function portOf(server: { address(): unknown }): number {
  const address = server.address() as { port: number } | null;
  if (!address) throw new Error('not listening');
  return address.port;
}

/** Opens a connection and collects what the server sends until it closes it. */
function open(port: number) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => {
    const started = Date.now();
    socket.on('close', () => resolve(Date.now() - started));
  });
  return { socket, closed, received: () => received };
}

/** Sends `data` a piece at a time, one piece every `everyMs`, while the socket is open. */
async function trickle(socket: Socket, data: Buffer, pieces: number, everyMs: number): Promise<void> {
  const size = Math.ceil(data.length / pieces);
  for (let offset = 0; offset < data.length && !socket.destroyed; offset += size) {
    socket.write(data.subarray(offset, offset + size));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describe('request timeouts (16.4)', () => {
  it.each([
    ['listening itself', false],
    ['on a connection handed over by the supervisor', true],
  ])('closes a connection whose headers never end (%s)', async (_label, handedOver) => {
    const { port } = await listening(handedOver);
    const client = open(port);
    client.socket.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\n');
    // A header line every 200 ms until shortly before the limit: writing on after the server has
    // answered 408 and closed would make the kernel reset the connection, which can discard the
    // 408 before this (possibly busy) process has read it.
    const started = Date.now();
    const keepTalking = setInterval(() => {
      if (client.socket.writable && Date.now() - started < timeouts.headersMs - 250)
        client.socket.write('X-Slow: 1\r\n');
    }, 100);
    try {
      const after = await Promise.race([
        client.closed,
        new Promise<number>((r) => setTimeout(() => r(-1), 5000)),
      ]);
      expect(after).toBeGreaterThan(0);
      expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(keepTalking);
    }
  });

  it.each([
    ['listening itself', false],
    ['on a connection handed over by the supervisor', true],
  ])('closes a stranger’s request whose body trickles in, with 408 (%s)', async (_label, handedOver) => {
    const { port } = await listening(handedOver);
    const client = open(port);
    const body = Buffer.from(JSON.stringify({ email: 'a@example.com', password: 'secret-secret' }));
    client.socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // Two bytes, then nothing: writing on after the 408 could have the kernel reset the
    // connection and discard the answer before it is read.
    void trickle(client.socket, body.subarray(0, 2), 2, 150);
    const after = await Promise.race([
      client.closed,
      new Promise<number>((r) => setTimeout(() => r(-1), 5000)),
    ]);
    expect(after).toBeGreaterThan(0);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('lets a slow but moving upload finish, and cuts one that stops moving', async () => {
    const { port, app } = await listening();
    const admin = await createUser(app, { role: 'admin' });
    const form = multipart({ mediaType: 'image', basePath: path.join(app.dataDir, 'media') }, [
      { name: 'slow.png', content: fixtures.png() },
    ]);
    const head = (length: number) =>
      `POST /api/media/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin.token}\r\n` +
      `Content-Type: ${form.headers['content-type']}\r\nContent-Length: ${length}\r\n\r\n`;

    // Moving: 10 pieces 300 ms apart take 3 s, five times the pause allowed.
    const moving = open(port);
    moving.socket.write(head(form.payload.length));
    await trickle(moving.socket, form.payload, 10, 300);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(moving.received()).toMatch(/^HTTP\/1\.1 200/);

    // Stopped: half the body, then nothing.
    const stopped = open(port);
    stopped.socket.write(head(form.payload.length));
    stopped.socket.write(form.payload.subarray(0, form.payload.length >> 1));
    const after = await Promise.race([
      stopped.closed,
      new Promise<number>((r) => setTimeout(() => r(-1), 5000)),
    ]);
    expect(after).toBeGreaterThan(0);
    expect(stopped.received()).not.toMatch(/^HTTP\/1\.1 200/);
  });
});
