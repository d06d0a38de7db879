import { Socket, type SocketConstructorOpts } from 'node:net';
import type { WorkerStatus } from '@common/schemas/app-server';
import type { RestartOutcome, SiteProcesses, SupervisorMessage, WorkerMessage } from './protocol';

/** This process's own figures. */
export function ownStatus(): WorkerStatus {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    pid: process.pid,
    uptime: Math.round(process.uptime() * 1000),
    memory: { heapUsed: memory.heapUsed, heapTotal: memory.heapTotal, rss: memory.rss },
    cpu: { user: cpu.user, system: cpu.system },
  };
}

/** The raw TCP handle inside a net.Socket (what travels over IPC without the socket's JS state). */
interface NativeHandle {
  readStop(): number;
}

/**
 * A worker's side of the conversation with `npm start`'s supervisor (supervisor.ts), over the
 * IPC channel the supervisor opens; the messages both ways are in protocol.ts. The supervisor
 * owns the listening sockets and passes each accepted connection to its workers in turn; when a
 * worker is replaced it hands its connections back so that the others serve them, and nobody's
 * request fails.
 */
export class SupervisorLink {
  private started?: { resolve: () => void; reject: (error: Error) => void };
  private restart: Promise<RestartOutcome> | null = null;
  private restartAnswer?: (outcome: RestartOutcome) => void;
  private connectionHandler: (socket: Socket) => void = (socket) => socket.destroy();
  private handOverHandler: () => void = () => undefined;
  /** Connections handed back but still waiting their turn on the channel (one handle at a time). */
  private handBacksInFlight = 0;
  private handBacksDone: Array<() => void> = [];
  private statusRequests = new Map<number, (processes: SiteProcesses) => void>();
  private nextStatus = 1;

  /** The link, when this process was started by the supervisor; null when run on its own. */
  static connect(): SupervisorLink | null {
    return typeof process.send === 'function' && process.connected ? new SupervisorLink() : null;
  }

  private constructor() {
    process.on('message', (message: SupervisorMessage, handle?: unknown) => this.receive(message, handle));
  }

  private receive(message: SupervisorMessage, handle?: unknown): void {
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
      case 'hand-over':
        this.handOverHandler();
        break;
      case 'report': {
        const { pid: _pid, ...report } = ownStatus();
        this.send({ type: 'report', id: message.id, report });
        break;
      }
      case 'status':
        this.statusRequests.get(message.id)?.({ workers: message.workers, supervisor: message.supervisor });
        this.statusRequests.delete(message.id);
        break;
      case 'restart-failed':
        this.restartAnswer?.({ started: false, message: message.message });
        this.restart = null;
        break;
    }
  }

  private send(message: WorkerMessage, handle?: NativeHandle, done?: (error: Error | null) => void): void {
    if (!process.connected) {
      done?.(new Error('The supervisor is gone'));
      return;
    }
    // keepOpen: this process closes its own copy once the message (and so the socket) is on its way.
    process.send?.(message, handle as never, { keepOpen: true }, (error) => done?.(error));
  }

  /**
   * Says which address this worker wants and how many workers the site runs (the supervisor
   * heeds the first worker of a start or restart), then waits until the address is open.
   */
  hello(host: string, port: number, workers: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.started = { resolve, reject };
      this.send({ type: 'hello', host, port, workers });
    });
  }

  ready(): void {
    this.send({ type: 'ready' });
  }

  /** The embedded store's lock file, held in the supervisor's name: it removes it when it stops. */
  lockedFor(file: string): void {
    this.send({ type: 'lock', file });
  }

  /** The pid the workers of this supervisor hold the store's lock under. */
  get supervisorPid(): number {
    return process.ppid;
  }

  /** Every worker's figures, gathered by the supervisor (null when it does not answer). */
  siteProcesses(timeoutMs = 3000): Promise<SiteProcesses | null> {
    const id = this.nextStatus++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.statusRequests.delete(id);
        resolve(null);
      }, timeoutMs);
      this.statusRequests.set(id, (processes) => {
        clearTimeout(timer);
        resolve(processes);
      });
      this.send({ type: 'status', id }, undefined, (error) => {
        if (!error) return;
        clearTimeout(timer);
        this.statusRequests.delete(id);
        resolve(null);
      });
    });
  }

  fatal(message: string): void {
    this.send({ type: 'fatal', message });
  }

  onConnection(handler: (socket: Socket) => void): void {
    this.connectionHandler = handler;
  }

  /** Called when this worker is being replaced (a restart): it must hand over and exit. */
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
