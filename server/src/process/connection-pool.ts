import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

interface Tracked {
  responses: Set<ServerResponse>;
  /** In-flight requests on this connection that may use the store. */
  storeHolds: number;
}

interface ConnectionsList {
  idle(): Array<{ socket?: Socket }>;
}

/** Requests that can touch the store: anything but reading a media or static file. */
function holdsStore(request: IncomingMessage): boolean {
  const url = request.url ?? '';
  const read = request.method === 'GET' || request.method === 'HEAD';
  return !(read && (url.startsWith('/media/') || !url.startsWith('/api/')));
}

const until = (check: () => boolean, timeoutMs: number, wake: Set<() => void>) =>
  new Promise<boolean>((resolve) => {
    if (check()) return resolve(true);
    const timer = setTimeout(() => {
      wake.delete(test);
      resolve(false);
    }, timeoutMs);
    const test = () => {
      if (!check()) return;
      clearTimeout(timer);
      wake.delete(test);
      resolve(true);
    };
    wake.add(test);
  });

/**
 * The connections the supervisor gave this process's HTTP server, so they can be handed back
 * on a restart (idle ones at once, busy ones the moment their answer is sent) or closed
 * cleanly on shutdown. The server itself never listens: the supervisor owns the port.
 */
export class ConnectionPool {
  private readonly sockets = new Map<Socket, Tracked>();
  private readonly wake = new Set<() => void>();
  private mode: 'serving' | 'handing-back' | 'closing' = 'serving';
  private handBack: (socket: Socket) => void = (socket) => socket.destroy();

  constructor(private readonly server: Server) {
    // What listen() would do: turns on Node's per-connection bookkeeping (the headers and
    // request timeouts that stop slow clients, and the record of which connections are idle).
    server.emit('listening');
  }

  /**
   * From a hand-over or a shutdown on, every answer is watched, so that its connection is
   * settled the moment it is sent. Not before: while serving, watching each request would cost
   * every answer a listener and a closure for nothing.
   */
  private watchAnswers(): void {
    // First among the listeners: an answer from the fast lane (http/fast-lane.ts) is written
    // within the server's own listener, and on shutdown it must already say it is the last one.
    this.server.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
      this.track(request, response),
    );
    // The answers already on their way: Node keeps the one a connection is sending as _httpMessage.
    for (const socket of this.sockets.keys()) {
      const running = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (running && !running.writableFinished) this.track(running.req, running);
    }
  }

  get size(): number {
    return this.sockets.size;
  }

  accept(socket: Socket): void {
    if (this.mode !== 'serving') {
      this.handBack(socket);
      return;
    }
    // Node's HTTP server turns Nagle's algorithm off on the sockets it accepts itself; these were
    // accepted by the supervisor, so it is done here (else a reply written in several pieces, a
    // file or a CSV export, can wait for the client's delayed acknowledgement).
    socket.setNoDelay(true);
    this.sockets.set(socket, { responses: new Set(), storeHolds: 0 });
    socket.once('close', () => {
      this.sockets.delete(socket);
      this.notify();
    });
    this.server.emit('connection', socket);
  }

  /**
   * Hands every connection back (idle ones now, busy ones after their answer), waits until no
   * request that may use the store is running, calls `releaseStore`, then waits for the last
   * file downloads. Requests still running at a deadline are cut off.
   */
  async handOver(
    handBack: (socket: Socket) => void,
    releaseStore: () => Promise<void>,
    deadlines = { storeMs: 30_000, filesMs: 60_000 },
  ): Promise<void> {
    this.mode = 'handing-back';
    this.handBack = handBack;
    this.watchAnswers();
    for (const socket of [...this.sockets.keys()]) this.settle(socket);
    const storeFree = () => [...this.sockets.values()].every((tracked) => tracked.storeHolds === 0);
    if (!(await until(storeFree, deadlines.storeMs, this.wake))) {
      for (const [socket, tracked] of this.sockets) if (tracked.storeHolds > 0) socket.destroy();
    }
    await releaseStore();
    if (!(await until(() => this.sockets.size === 0, deadlines.filesMs, this.wake))) this.destroyAll();
  }

  /** Shutdown: no new requests on kept-alive connections, running ones finish (up to `timeoutMs`). */
  async close(timeoutMs = 10_000): Promise<void> {
    const watching = this.mode !== 'serving';
    this.mode = 'closing';
    if (!watching) this.watchAnswers();
    for (const socket of [...this.sockets.keys()]) this.settle(socket);
    if (!(await until(() => this.sockets.size === 0, timeoutMs, this.wake))) this.destroyAll();
  }

  /** Ends every connection now (a stop asked for during a hand-over): waits in progress end too. */
  closeNow(): void {
    this.destroyAll();
    this.notify();
  }

  private track(request: IncomingMessage, response: ServerResponse): void {
    const socket = request.socket;
    const tracked = this.sockets.get(socket);
    if (!tracked) return;
    const holds = holdsStore(request);
    tracked.responses.add(response);
    if (holds) tracked.storeHolds += 1;
    if (this.mode === 'closing') response.shouldKeepAlive = false;
    // 'close' comes right after the answer is written (or the connection dropped), in the same
    // turn of the event loop, so the client cannot have sent another request in between.
    response.once('close', () => {
      tracked.responses.delete(response);
      if (holds) tracked.storeHolds -= 1;
      this.settle(socket);
      this.notify();
    });
  }

  /** Hands back or closes a connection that has nothing running and no request half-read. */
  private settle(socket: Socket): void {
    const tracked = this.sockets.get(socket);
    if (!tracked || this.mode === 'serving') return;
    if (tracked.responses.size > 0 || !this.isIdle(socket)) {
      if (this.mode === 'closing')
        for (const response of tracked.responses) if (!response.headersSent) response.shouldKeepAlive = false;
      return;
    }
    this.sockets.delete(socket);
    if (this.mode === 'closing') socket.destroy();
    else this.handBack(socket);
    this.notify();
  }

  /**
   * True when no byte of a next request has been read: either nothing was ever read (a
   * connection opened ahead of use, as browsers do), or Node's own list of connections says no
   * request is half-read (it counts a never-used connection as busy, for its headers timeout).
   */
  private isIdle(socket: Socket): boolean {
    if (socket.bytesRead === 0) return true;
    const key = Object.getOwnPropertySymbols(this.server).find(
      (symbol) => symbol.description === 'http.server.connections',
    );
    const list = key
      ? (this.server as unknown as Record<symbol, ConnectionsList | undefined>)[key]
      : undefined;
    // Without Node's list, a connection with no request running is taken as idle.
    return list ? list.idle().some((parser) => parser.socket === socket) : true;
  }

  /** For the log when a hand-over takes long: what each remaining connection is waiting for. */
  describe(): Array<{ remotePort?: number; running: number; idle: boolean; destroyed: boolean }> {
    return [...this.sockets].map(([socket, tracked]) => ({
      remotePort: socket.remotePort,
      running: tracked.responses.size,
      idle: this.isIdle(socket),
      destroyed: socket.destroyed,
    }));
  }

  private destroyAll(): void {
    for (const socket of this.sockets.keys()) socket.destroy();
    this.sockets.clear();
  }

  private notify(): void {
    for (const test of [...this.wake]) test();
  }
}
