import type { SendHandle } from 'node:child_process';
import net from 'node:net';
import { log, warn } from './supervisor-log';
import type { Address, WorkerRecord } from './worker-record';

const MAX_WAITING_CONNECTIONS = 10_000;

/** A connection's raw TCP handle: what travels over IPC, without a socket's JS state. */
export interface RawHandle {
  close(): void;
}

/** A connection on its way to a worker: its handle, and the socket owning it when it was accepted here. */
interface Connection {
  handle: RawHandle;
  socket?: net.Socket;
}

/**
 * The listening sockets, which the supervisor holds so that workers can come and go, and the
 * hand-over of each accepted connection to the next worker in turn (over IPC, as a raw handle:
 * Node 20 has no `reusePort`). Connections wait here, paused (not a byte read), while no worker is
 * ready, so nobody's request fails while workers come and go.
 */
export class Connections {
  /** Listening sockets by "host:port", each a net.Server that never reads what it accepts. */
  private readonly listeners = new Map<string, net.Server>();
  private readonly waiting: Connection[] = [];

  constructor(private readonly nextWorker: () => WorkerRecord | null) {}

  /** The worker's connection, handed back as it leaves: the next worker takes it. */
  handBack(handle: RawHandle): void {
    this.deliver({ handle });
  }

  /** A worker became ready: whatever waited goes out. */
  flush(): void {
    for (const connection of this.waiting.splice(0)) this.deliver(connection);
  }

  private deliver(connection: Connection): void {
    const worker = this.nextWorker();
    if (!worker) {
      if (this.waiting.length >= MAX_WAITING_CONNECTIONS) this.release(connection, true);
      else this.waiting.push(connection);
      return;
    }
    const handle = connection.handle as unknown as SendHandle;
    // keepOpen: this process closes its own copy after the handle is on its way.
    worker.child.send({ type: 'connection' }, handle, { keepOpen: true }, (error) => {
      if (!error) return this.release(connection);
      // That worker went away meanwhile: the next one takes the connection.
      this.deliver(connection);
    });
  }

  private release(connection: Connection, refuse = false): void {
    if (connection.socket) connection.socket.destroy();
    else connection.handle.close();
    if (refuse) warn('too many waiting connections: one refused');
  }

  /** Opens `host:port` (0 for any port) unless it is open already; rejects when it cannot. */
  async listen(host: string, port: number): Promise<Address> {
    const key = `${host}:${port}`;
    const known = this.listeners.get(key);
    if (known) return { key, port: (known.address() as net.AddressInfo).port };
    const server = net.createServer({ pauseOnConnect: true });
    server.on('connection', (socket) => {
      const handle = (socket as unknown as { _handle: RawHandle })._handle;
      this.deliver({ handle, socket });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, backlog: 2048 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => warn(`listener ${key}: ${error.message}`));
    this.listeners.set(key, server);
    return { key, port: (server.address() as net.AddressInfo).port };
  }

  /** Closes the listening sockets no worker uses any more (a port changed by a restart). */
  closeUnused(used: Set<string>): void {
    for (const [key, server] of this.listeners) {
      if (used.has(key)) continue;
      this.listeners.delete(key);
      server.close();
      log(`stopped listening on ${key}`);
    }
  }

  /** The supervisor stops: no more connections; those waiting are closed. */
  close(): void {
    for (const server of this.listeners.values()) server.close();
    this.listeners.clear();
    for (const connection of this.waiting.splice(0)) this.release(connection);
  }
}
