import { Socket, type SocketConstructorOpts } from 'node:net';
import type { RestartOutcome } from '../../app-context';

/**
 * The server's side of the conversation with `npm start`'s supervisor (scripts/supervisor.mjs),
 * over the IPC channel the supervisor opens. The supervisor owns the listening sockets and
 * passes each accepted connection here; on a restart this process hands its connections back
 * so that the next process serves them, and nobody's request fails.
 *
 *   server → supervisor: hello {host, port} · ready · restart · released · handback (+ socket) · fatal
 *   supervisor → server: start · abort · connection (+ socket) · restart-ok {port} · restart-failed
 */
type Incoming =
  | { type: 'start' }
  | { type: 'abort'; message: string }
  | { type: 'connection' }
  | { type: 'restart-ok'; port: number }
  | { type: 'restart-failed'; message: string };

/** The raw TCP handle inside a net.Socket (what travels over IPC without the socket's JS state). */
interface NativeHandle {
  readStop(): number;
}

export class SupervisorLink {
  private started?: { resolve: () => void; reject: (error: Error) => void };
  private restart: Promise<RestartOutcome> | null = null;
  private restartAnswer?: (outcome: RestartOutcome) => void;
  private connectionHandler: (socket: Socket) => void = (socket) => socket.destroy();
  private handOverHandler: () => void = () => undefined;
  /** Connections handed back but still waiting their turn on the channel (one handle at a time). */
  private handBacksInFlight = 0;
  private handBacksDone: Array<() => void> = [];

  /** The link, when this process was started by the supervisor; null when run on its own. */
  static connect(): SupervisorLink | null {
    return typeof process.send === 'function' && process.connected ? new SupervisorLink() : null;
  }

  private constructor() {
    process.on('message', (message: Incoming, handle?: unknown) => this.receive(message, handle));
  }

  private receive(message: Incoming, handle?: unknown): void {
    switch (message?.type) {
      case 'start':
        this.started?.resolve();
        break;
      case 'abort':
        this.started?.reject(new Error(message.message));
        break;
      case 'connection':
        if (handle) {
          // Created from the handle, in the same tick it is given to the HTTP server: no byte is read before.
          const options = { handle, readable: true, writable: true } as SocketConstructorOpts;
          const socket = new Socket(options);
          this.connectionHandler(socket);
        }
        break;
      case 'restart-ok':
        this.restartAnswer?.({ started: true, port: message.port });
        this.handOverHandler();
        break;
      case 'restart-failed':
        this.restartAnswer?.({ started: false, message: message.message });
        this.restart = null;
        break;
    }
  }

  private send(message: object, handle?: NativeHandle, done?: (error: Error | null) => void): void {
    if (!process.connected) {
      done?.(new Error('The supervisor is gone'));
      return;
    }
    // keepOpen: this process closes its own copy once the message (and so the socket) is on its way.
    process.send?.(message, handle as never, { keepOpen: true }, (error) => done?.(error));
  }

  /** Says which address this server wants, then waits until it may open the store. */
  hello(host: string, port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.started = { resolve, reject };
      this.send({ type: 'hello', host, port });
    });
  }

  ready(): void {
    this.send({ type: 'ready' });
  }

  /** The store is closed: the next process may open it now. */
  released(): void {
    this.send({ type: 'released' });
  }

  fatal(message: string): void {
    this.send({ type: 'fatal', message });
  }

  onConnection(handler: (socket: Socket) => void): void {
    this.connectionHandler = handler;
  }

  /** Called when the supervisor accepted a restart: this process must hand over and exit. */
  onHandOver(handler: () => void): void {
    this.handOverHandler = handler;
  }

  /** Asks for a restart; every caller during one restart shares its outcome. */
  requestRestart(): Promise<RestartOutcome> {
    this.restart ??= new Promise((resolve) => {
      this.restartAnswer = resolve;
      this.send({ type: 'restart' }, undefined, (error) => {
        if (error) {
          this.restart = null;
          resolve({ started: false, message: 'The supervisor is not reachable.' });
        }
      });
    });
    return this.restart;
  }

  /**
   * Gives an idle connection to the supervisor for the next process. Reading stops first, so
   * every byte the client sends from now on is read by the next process, not lost here.
   */
  handBack(socket: Socket): void {
    const handle = (socket as unknown as { _handle?: NativeHandle | null })._handle;
    if (!handle) {
      socket.destroy();
      return;
    }
    handle.readStop();
    this.handBacksInFlight += 1;
    this.send({ type: 'handback' }, handle, () => {
      socket.destroy();
      this.handBacksInFlight -= 1;
      if (this.handBacksInFlight === 0) for (const done of this.handBacksDone.splice(0)) done();
    });
  }

  /**
   * Resolves once every handed-back connection has left this process. Until then nothing may
   * close them (as closing the HTTP server or exiting would).
   */
  handBacksSent(timeoutMs = 5000): Promise<void> {
    if (this.handBacksInFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      // A channel that broke meanwhile never answers: do not wait for it forever.
      setTimeout(resolve, timeoutMs).unref();
      this.handBacksDone.push(resolve);
    });
  }
}
