// The supervisor `npm start` runs (scripts/start.mjs): it owns the listening socket and passes
// each accepted connection to the current server process over IPC, so that a restart never
// closes the port and never fails a request:
//
//   1. the running server asks for a restart; a new server process is started and loads its code;
//   2. it says where it wants to listen (a changed port is opened now, next to the old one);
//   3. the old process is told to hand over: it gives its connections back (idle ones at once,
//      busy ones right after their answer), closes the store and exits; meanwhile new
//      connections wait here, paused;
//   4. only then the new process opens the store (never two at once), says it is ready, and
//      gets every waiting connection. A port no longer used is closed.
//
// Run on its own: node scripts/supervisor.mjs (no client build). Server processes that crash
// are started again (with a pause, giving up after 5 crashes in a minute); SIGINT or SIGTERM
// stops everything cleanly.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RESTART_EXIT_CODE = 75;
const CONFIG_EXIT_CODE = 78;
/** The server could not use one of its folders (read-only, permission denied, full): it said which. */
const FOLDER_EXIT_CODE = 73;
const MAX_WAITING_CONNECTIONS = 10_000;
/** A new server process that has not said where it listens by then is taken as stuck. */
const HELLO_TIMEOUT_MS = 60_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (message) => console.log(`[supervisor] ${message}`);
const warn = (message) => console.error(`[supervisor] ${message}`);

/**
 * `entry` is the server's main module and `execArgv` the node options it runs with: by default
 * the TypeScript sources through tsx (tests, running this file on its own); `npm start` passes
 * the built server and no options.
 */
export function supervise({ entry = 'server/src/main.ts', execArgv = ['--import', 'tsx'], cwd = root } = {}) {
  /** Listening sockets by "host:port", each a net.Server that never reads what it accepts. */
  const listeners = new Map();
  /** Connections (raw handles, plus the socket that owns the handle when accepted here) waiting for a server. */
  const waiting = [];
  let active = null; // the ready server process that gets connections
  let next = null; // a server process starting up
  const handingOver = new Set(); // old processes still finishing
  let restart = null; // { requester, child } while a restart waits for the new process's address
  let stopping = false;
  let exitCode = 0;
  let crashes = [];

  function spawnServer() {
    const child = spawn(process.execPath, [...execArgv, entry], {
      cwd,
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    child.helloTimer = setTimeout(() => {
      warn(`server process ${child.pid} did not start within ${HELLO_TIMEOUT_MS / 1000} s; stopping it.`);
      child.fatal = 'The new server process did not start in time.';
      child.kill('SIGKILL');
    }, HELLO_TIMEOUT_MS);
    child.on('message', (message, handle) => onMessage(child, message, handle));
    child.on('exit', (code, signal) => {
      clearTimeout(child.helloTimer);
      onExit(child, code, signal);
    });
    child.on('error', (error) => warn(`server process error: ${error.message}`));
    return child;
  }

  function send(child, message) {
    if (child.connected)
      child.send(message, (error) => error && warn(`could not reach a server: ${error.message}`));
  }

  function deliver(item) {
    if (!active?.connected) {
      if (waiting.length >= MAX_WAITING_CONNECTIONS) return release(item, true);
      waiting.push(item);
      return;
    }
    const child = active;
    // keepOpen: this process closes its own copy after the handle is on its way.
    child.send({ type: 'connection' }, item.handle, { keepOpen: true }, (error) => {
      if (!error) return release(item);
      waiting.unshift(item);
      if (active && active !== child) flush();
    });
  }

  function release(item, refuse = false) {
    if (item.socket) item.socket.destroy();
    else item.handle.close();
    if (refuse) warn('too many waiting connections: one refused');
  }

  function flush() {
    for (const item of waiting.splice(0)) deliver(item);
  }

  async function listen(host, port) {
    const key = `${host}:${port}`;
    const known = listeners.get(key);
    if (known) return { key, port: known.address().port };
    const server = net.createServer({ pauseOnConnect: true });
    server.on('connection', (socket) => deliver({ handle: socket._handle, socket }));
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, backlog: 2048 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => warn(`listener ${key}: ${error.message}`));
    listeners.set(key, server);
    return { key, port: server.address().port };
  }

  async function onHello(child, { host, port }) {
    clearTimeout(child.helloTimer);
    try {
      child.address = await listen(host, port);
    } catch (error) {
      const reason = `Cannot listen on ${host}:${port} (${error.code ?? error.message}).`;
      send(child, { type: 'abort', message: reason });
      if (restart?.child === child) {
        send(restart.requester, { type: 'restart-failed', message: reason });
        restart = null;
        next = null;
      } else {
        warn(reason);
        stop(1);
      }
      return;
    }
    if (restart?.child === child && active === restart.requester) {
      // From here on new connections wait for the new process.
      handingOver.add(active);
      send(active, { type: 'restart-ok', port: child.address.port });
      active = null;
      restart = null;
    }
    startWhenFree();
  }

  /** The next process may open the store once every old one has released it. */
  function startWhenFree() {
    if (!next?.address || next.started) return;
    if ([...handingOver].some((old) => !old.released)) return;
    next.started = true;
    send(next, { type: 'start' });
  }

  function onReady(child) {
    if (child !== next) return;
    active = child;
    next = null;
    restart = null;
    log(
      `serving on http://${child.address.key.replace(/:(\d+)$/, '')}:${child.address.port} (pid ${child.pid})`,
    );
    flush();
    for (const [key, server] of listeners) {
      if (key === child.address.key) continue;
      listeners.delete(key);
      server.close();
      log(`stopped listening on ${key}`);
    }
  }

  function onMessage(child, message, handle) {
    switch (message?.type) {
      case 'hello':
        void onHello(child, message);
        break;
      case 'ready':
        onReady(child);
        break;
      case 'restart':
        if (child !== active || next || stopping) {
          send(child, { type: 'restart-failed', message: 'A restart is already in progress.' });
          break;
        }
        log('restarting the server…');
        next = spawnServer();
        restart = { requester: child, child: next };
        break;
      case 'released':
        child.released = true;
        startWhenFree();
        break;
      case 'handback':
        if (handle) deliver({ handle });
        break;
      case 'fatal':
        child.fatal = message.message;
        break;
    }
  }

  function onExit(child, code, signal) {
    const wasActive = child === active;
    handingOver.delete(child);
    if (wasActive) active = null;
    if (child === next) {
      next = null;
      if (restart?.child === child) {
        const reason = child.fatal ?? `The new server process stopped while starting (${code ?? signal}).`;
        send(restart.requester, { type: 'restart-failed', message: reason });
        restart = null;
        return;
      }
    }
    if (stopping) return finishIfDone();
    startWhenFree();
    if (active || next) return;
    // Nothing serves any more.
    if (wasActive && code === 0) return stop(0); // it was stopped on purpose (a signal sent to it alone)
    if (code === CONFIG_EXIT_CODE) {
      warn('the server cannot start until the problem above is fixed; not starting it again.');
      return stop(CONFIG_EXIT_CODE);
    }
    if (code === FOLDER_EXIT_CODE) {
      warn('the server cannot use one of its folders (see the line above); not starting it again.');
      return stop(FOLDER_EXIT_CODE);
    }
    const now = Date.now();
    crashes = [...crashes.filter((at) => now - at < 60_000), now];
    if (crashes.length > 5) {
      warn('the server keeps stopping; giving up.');
      return stop(1);
    }
    if (code !== RESTART_EXIT_CODE)
      warn(`the server stopped unexpectedly (${code ?? signal}); starting it again.`);
    const pause = code === RESTART_EXIT_CODE ? 0 : 250 * 2 ** (crashes.length - 1);
    setTimeout(() => {
      if (!stopping && !next && !active) next = spawnServer();
    }, pause);
  }

  const children = () =>
    [active, next, ...handingOver].filter((c) => c && c.exitCode === null && c.signalCode === null);

  function stop(code) {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const server of listeners.values()) server.close();
    listeners.clear();
    for (const item of waiting.splice(0)) release(item);
    for (const child of children()) child.kill('SIGTERM');
    setTimeout(() => {
      for (const child of children()) child.kill('SIGKILL');
      process.exit(exitCode || 1);
    }, 20_000).unref();
    finishIfDone();
  }

  function finishIfDone() {
    if (children().length === 0) process.exit(exitCode);
  }

  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));
  next = spawnServer();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) supervise();
