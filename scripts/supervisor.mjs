// The supervisor `npm start` runs (scripts/start.mjs). It owns the listening socket and runs
// WORKERS server processes (workers), passing each accepted connection to the next worker in
// turn over IPC. Connections wait here, paused, while no worker is ready, so nobody's request
// fails while workers come and go:
//
//   start:   the first worker says where it wants to listen and how many workers the site runs
//            (its settings decide: WORKERS, else the Node.js panel's, else the default); once it
//            is ready (store opened, any import done) the others are started beside it.
//   crash:   a worker that stops unexpectedly is replaced (with a growing pause; after 5 crashes
//            in a minute it is not replaced any more while others serve); the others keep serving.
//   restart: asked for from the console, the workers are replaced one at a time: a new worker
//            starts and is ready before an old one hands its connections back (idle ones at once,
//            busy ones right after their answer) and exits. The worker that asked goes first, so
//            the console gets its answer as soon as the first new worker serves. A changed port is
//            opened beside the old one, which closes once no worker of the old settings is left.
//
// Run on its own: node scripts/supervisor.mjs (no client build). SIGINT or SIGTERM stops
// everything cleanly and removes the store's lock file the workers share.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RESTART_EXIT_CODE = 75;
const CONFIG_EXIT_CODE = 78;
/** The server could not use one of its folders (read-only, permission denied, full): it said which. */
const FOLDER_EXIT_CODE = 73;
const MAX_WAITING_CONNECTIONS = 10_000;
/** A new worker that has not said where it listens by then is taken as stuck. */
const HELLO_TIMEOUT_MS = 60_000;
/** How long the status of every worker may take to gather; a worker that does not answer is listed without figures. */
const REPORT_TIMEOUT_MS = 1000;
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
  /** Connections (raw handles, plus the socket that owns the handle when accepted here) waiting for a worker. */
  const waiting = [];
  /** Ready workers, in the order connections go to them. */
  const serving = [];
  /** Workers started but not ready yet. */
  const starting = new Set();
  /** Old workers handing their connections back before they exit. */
  const leaving = new Set();
  let wanted = 1; // told by the first worker of each generation
  let turn = 0;
  /**
   * A rolling restart: { requester, old: workers still to replace, answered }. The workers it
   * starts carry it as `child.roll`, so that they are told apart from any started before it.
   */
  let roll = null;
  let stopping = false;
  let exitCode = 0;
  let crashes = [];
  /** The embedded store's lock file, which the workers share under this process's pid. */
  let lockFile = null;
  const reports = new Map(); // status requests being gathered, by id
  let nextReport = 1;

  function spawnWorker() {
    const child = spawn(process.execPath, [...execArgv, entry], {
      cwd,
      env: workerEnvironment(),
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    starting.add(child);
    child.helloTimer = setTimeout(() => {
      warn(`worker ${child.pid} did not start within ${HELLO_TIMEOUT_MS / 1000} s; stopping it.`);
      child.fatal = 'The new server process did not start in time.';
      child.kill('SIGKILL');
    }, HELLO_TIMEOUT_MS);
    child.on('message', (message, handle) => onMessage(child, message, handle));
    child.on('exit', (code, signal) => {
      clearTimeout(child.helloTimer);
      onExit(child, code, signal);
    });
    child.on('error', (error) => warn(`worker error: ${error.message}`));
    return child;
  }

  function send(child, message) {
    if (child.connected)
      child.send(message, (error) => error && warn(`could not reach a worker: ${error.message}`));
  }

  /**
   * Password hashes run on libuv's thread pool (4 threads by default, sized when a process
   * starts). The workers of one machine share its cores, so each gets a share of the 4: with 2
   * workers of 4 threads each, sign-ins were 5 to 10 % fewer than with 1 worker, and with 2 threads
   * each a little more (bench/sign-in.bench.ts). Before the first worker has said how many the site
   * runs, WORKERS (else one per core, at most 4, as config.ts resolves 0) is the guess.
   */
  function workerEnvironment() {
    if (process.env.UV_THREADPOOL_SIZE) return process.env;
    const told = serving.length + starting.size + leaving.size > 0 || roll;
    const guess = Number(process.env.WORKERS) || Math.min(availableParallelism(), 4);
    const workers = told ? wanted : guess;
    return { ...process.env, UV_THREADPOOL_SIZE: String(Math.max(2, Math.ceil(4 / workers))) };
  }

  /** The next worker in turn that can still take a connection. */
  function pick() {
    for (let tried = 0; tried < serving.length; tried++) {
      const child = serving[turn++ % serving.length];
      if (child.connected) return child;
    }
    return null;
  }

  function deliver(item) {
    const child = pick();
    if (!child) {
      if (waiting.length >= MAX_WAITING_CONNECTIONS) return release(item, true);
      waiting.push(item);
      return;
    }
    // keepOpen: this process closes its own copy after the handle is on its way.
    child.send({ type: 'connection' }, item.handle, { keepOpen: true }, (error) => {
      if (!error) return release(item);
      // That worker went away meanwhile: the next one takes the connection.
      deliver(item);
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

  async function onHello(child, { host, port, workers }) {
    clearTimeout(child.helloTimer);
    // The first worker of a start or restart decides how many workers the site has.
    if (child.first && Number.isInteger(workers) && workers >= 1) wanted = workers;
    try {
      child.address = await listen(host, port);
    } catch (error) {
      const reason = `Cannot listen on ${host}:${port} (${error.code ?? error.message}).`;
      child.fatal = reason;
      send(child, { type: 'abort', message: reason });
      return; // its exit says the rest
    }
    send(child, { type: 'start' });
  }

  function onReady(child) {
    if (!starting.delete(child)) return;
    serving.push(child);
    const url = `http://${child.address.key.replace(/:(\d+)$/, '')}:${child.address.port}`;
    log(`serving on ${url} (pid ${child.pid}) · ${serving.length} serving, ${wanted} wanted`);
    flush();
    if (roll && child.roll === roll) return retireOne();
    // Started before the restart began (a crash's replacement, the site's own start): it has the old settings too.
    if (roll) roll.old.push(child);
    else fill();
  }

  /** Starts workers until the site has as many as it wants (none while restarting or stopping). */
  function fill() {
    if (stopping || roll) return;
    // The first worker opens the store alone (it may import the old store's files); the rest follow it.
    if (serving.length === 0 && starting.size > 0) return;
    while (serving.length + starting.size < wanted) spawnWorker();
    if (serving.length > wanted) for (const extra of serving.slice(wanted)) retire(extra);
  }

  /** Tells a worker to hand its connections back and exit; new connections go to the others. */
  function retire(child, message = { type: 'hand-over' }) {
    const index = serving.indexOf(child);
    if (index >= 0) serving.splice(index, 1);
    leaving.add(child);
    send(child, message);
  }

  /** One step of a rolling restart: a new worker is ready, so one old worker goes. */
  function retireOne() {
    const old = roll.old.shift();
    if (old) {
      if (old === roll.requester) {
        retire(old, { type: 'restart-ok', port: serving.at(-1).address.port });
        roll.answered = true;
      } else if (serving.includes(old)) retire(old);
    }
    const ofThisRestart = (child) => child.roll === roll;
    const fresh = serving.filter(ofThisRestart).length + [...starting].filter(ofThisRestart).length;
    if (roll.old.length > 0 && fresh < wanted) {
      spawnWorker().roll = roll;
      return;
    }
    // Fewer workers wanted than before: the old ones left over go now.
    for (const extra of roll.old.splice(0)) if (serving.includes(extra)) retire(extra);
    roll = null;
    log('restart finished');
    closeUnusedListeners();
    fill();
  }

  function closeUnusedListeners() {
    const used = new Set([...serving, ...starting].map((child) => child.address?.key).filter(Boolean));
    for (const [key, server] of listeners) {
      if (used.has(key)) continue;
      listeners.delete(key);
      server.close();
      log(`stopped listening on ${key}`);
    }
  }

  function startRestart(requester) {
    if (roll || stopping || !serving.includes(requester)) {
      send(requester, { type: 'restart-failed', message: 'A restart is already in progress.' });
      return;
    }
    log(`restarting ${serving.length === 1 ? 'the worker' : `${serving.length} workers, one at a time`}…`);
    roll = {
      requester,
      old: [requester, ...serving.filter((child) => child !== requester)],
      answered: false,
    };
    const first = spawnWorker();
    first.first = true;
    first.roll = roll;
  }

  /** A new worker of a restart stopped before it was ready: the old workers go on serving. */
  function abandonRestart(child, code, signal) {
    const reason = child.fatal ?? `The new server process stopped while starting (${code ?? signal}).`;
    if (!roll.answered) send(roll.requester, { type: 'restart-failed', message: reason });
    else warn(`restart stopped half-way: ${reason}`);
    roll = null;
    closeUnusedListeners();
  }

  function gatherStatus(child, id) {
    const workers = [...serving];
    const answer = { workers: workers.map((w) => ({ pid: w.pid })), pending: new Set(workers) };
    const finish = () => {
      if (!reports.has(key)) return;
      reports.delete(key);
      clearTimeout(timer);
      const memory = process.memoryUsage();
      send(child, {
        type: 'status',
        id,
        workers: answer.workers,
        supervisor: { pid: process.pid, uptime: Math.round(process.uptime() * 1000), rss: memory.rss },
      });
    };
    const key = nextReport++;
    const timer = setTimeout(finish, REPORT_TIMEOUT_MS);
    reports.set(key, { answer, finish });
    if (workers.length === 0) return finish();
    for (const worker of workers) send(worker, { type: 'report', id: key });
  }

  function onReport(child, { id, report }) {
    const gathering = reports.get(id);
    if (!gathering) return;
    const index = gathering.answer.workers.findIndex((w) => w.pid === child.pid);
    if (index >= 0) gathering.answer.workers[index] = { pid: child.pid, ...report };
    gathering.answer.pending.delete(child);
    if (gathering.answer.pending.size === 0) gathering.finish();
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
        startRestart(child);
        break;
      case 'handback':
        if (handle) deliver({ handle });
        break;
      case 'fatal':
        child.fatal = message.message;
        break;
      case 'lock':
        lockFile = message.file;
        break;
      case 'status':
        gatherStatus(child, message.id);
        break;
      case 'report':
        onReport(child, message);
        break;
    }
  }

  function onExit(child, code, signal) {
    const wasServing = serving.includes(child);
    const wasStarting = starting.delete(child);
    if (wasServing) serving.splice(serving.indexOf(child), 1);
    if (leaving.delete(child)) return stopping ? finishIfDone() : undefined;
    if (stopping) return finishIfDone();
    for (const { answer, finish } of reports.values()) {
      if (answer.pending.delete(child) && answer.pending.size === 0) finish();
    }
    if (roll) {
      if (wasStarting && child.roll === roll) return abandonRestart(child, code, signal);
      const index = roll.old.indexOf(child);
      if (index >= 0) roll.old.splice(index, 1);
    }
    const nobodyServes = serving.length === 0;
    if (nobodyServes && starting.size === 0) {
      if (wasServing && code === 0) return stop(0); // stopped on purpose (a signal sent to it alone)
      if (code === CONFIG_EXIT_CODE) {
        warn('the server cannot start until the problem above is fixed; not starting it again.');
        return stop(CONFIG_EXIT_CODE);
      }
      if (code === FOLDER_EXIT_CODE) {
        warn('the server cannot use one of its folders (see the line above); not starting it again.');
        return stop(FOLDER_EXIT_CODE);
      }
      if (child.fatal?.startsWith('Cannot listen')) return stop(1);
    }
    if (code === CONFIG_EXIT_CODE || code === FOLDER_EXIT_CODE) {
      warn(`worker ${child.pid} cannot start (see the line above); the others go on serving without it.`);
      return;
    }
    const now = Date.now();
    crashes = [...crashes.filter((at) => now - at < 60_000), now];
    if (crashes.length > 5) {
      if (nobodyServes) {
        warn('the server keeps stopping; giving up.');
        return stop(1);
      }
      warn('workers keep stopping; not replacing them for now.');
      return;
    }
    if (code !== RESTART_EXIT_CODE) {
      warn(`worker ${child.pid} stopped unexpectedly (${code ?? signal}); starting another.`);
    }
    const pause = code === RESTART_EXIT_CODE ? 0 : 250 * 2 ** (crashes.length - 1);
    setTimeout(() => {
      if (serving.length === 0 && starting.size === 0 && !stopping) spawnWorker().first = true;
      else fill();
    }, pause);
  }

  const children = () =>
    [...serving, ...starting, ...leaving].filter((c) => c.exitCode === null && c.signalCode === null);

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
      removeLock();
      process.exit(exitCode || 1);
    }, 20_000).unref();
    finishIfDone();
  }

  /** The workers leave the shared lock in place; it goes when the last of them has stopped. */
  function removeLock() {
    if (!lockFile) return;
    try {
      if (Number(readFileSync(lockFile, 'utf8').trim()) === process.pid) rmSync(lockFile, { force: true });
    } catch {
      // Gone already, or on a disk that turned read-only: the next start takes over a lock whose owner is gone.
    }
  }

  function finishIfDone() {
    if (children().length > 0) return;
    removeLock();
    process.exit(exitCode);
  }

  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));
  spawnWorker().first = true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) supervise();
