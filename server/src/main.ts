import path from 'node:path';
import { buildApp } from './app';
import { dataDirRules } from './features/nginx/nginx-layout';
import { makeDataDirPrivate } from './lib/private-files';
import { checkWritableFolder, StartupError } from './lib/startup-error';
import { ConnectionPool } from './process/connection-pool';
import {
  CONFIG_EXIT_CODE,
  FOLDER_EXIT_CODE,
  RESTART_EXIT_CODE,
  type RestartOutcome,
} from './process/protocol';
import { SupervisorLink } from './process/supervisor-link';
import { ConfigError, loadConfig } from './settings/config';
import { openStore } from './store/open-store';
import { lockPath } from './store/sqlite/lock';

async function main(): Promise<void> {
  // Present when `npm start`'s supervisor started this process; absent when run on its own.
  const link = SupervisorLink.connect();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      link?.fatal(error.message);
      process.exit(CONFIG_EXIT_CODE); // a person has to fix the environment: not restarted
    }
    if (error instanceof StartupError) {
      console.error(error.message);
      link?.fatal(error.message);
      process.exit(FOLDER_EXIT_CODE);
    }
    throw error;
  }
  // Libraries read it; the console's Environment setting decides it unless NODE_ENV is set.
  process.env.NODE_ENV = config.nodeEnv;

  let stopping = false;
  const stopEarly = () => process.exit(0);
  process.on('SIGINT', stopEarly);
  process.on('SIGTERM', stopEarly);
  // Under the supervisor: the address first (a port someone else holds stops the start before the store opens).
  if (link) {
    try {
      await link.hello(config.host, config.port, config.workers);
    } catch (error) {
      console.error((error as Error).message);
      process.exit(1);
    }
  }

  let store: Awaited<ReturnType<typeof openStore>>;
  try {
    await checkWritableFolder(config.dataDir, 'data folder (DATA_DIR)', 'DATA_DIR');
    if (config.nginx.mode === 'managed') {
      await checkWritableFolder(config.nginx.dir, "web server's folder", 'DATA_DIR');
    }
    await makeDataDirPrivate(config.dataDir, dataDirRules(config));
    store = await openStore(config, { lockHolder: link?.supervisorPid });
    if (link && store.kind === 'embedded') link.lockedFor(lockPath(path.join(config.dataDir, 'db')));
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    // One line, no stack: a person has to fix the folder (or a damaged file), so starting again would not help.
    console.error(error.message);
    link?.fatal(error.message);
    process.exit(FOLDER_EXIT_CODE);
  }
  const app = await buildApp({
    config,
    store,
    logger: { level: config.logLevel },
    requestRestart: link ? () => link.requestRestart() : restartUnsupervised,
    siteProcesses: link ? () => link.siteProcesses() : undefined,
  }).catch(async (error: unknown) => {
    // A file a person has to fix (a jwt-secret too short to be safe): one plain line, no restart.
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    link?.fatal(error.message);
    await store.close();
    process.exit(CONFIG_EXIT_CODE);
  });
  process.off('SIGINT', stopEarly);
  process.off('SIGTERM', stopEarly);

  async function shutdown(
    reason: string,
    exitCode = 0,
    closeConnections?: () => Promise<void>,
  ): Promise<void> {
    if (stopping) return;
    stopping = true;
    app.log.info({ reason }, 'Shutting down');
    const forced = setTimeout(() => process.exit(exitCode || 1), 15_000);
    forced.unref();
    await closeConnections?.();
    await app.close();
    await store.close();
    process.exit(exitCode);
  }

  function restartUnsupervised(): Promise<RestartOutcome> {
    // The answer goes out first: app.close() lets running requests finish.
    setImmediate(() => void shutdown('restart', RESTART_EXIT_CODE));
    return Promise.resolve({ started: true, port: config.port });
  }

  if (!link) {
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    await app.listen({ port: config.port, host: config.host });
    app.log.info(
      `Serving on http://${config.host}:${config.port} (store: ${store.kind}, data: ${config.dataDir})`,
    );
    return;
  }

  await app.ready();
  const pool = new ConnectionPool(app.server);
  link.onConnection((socket) => pool.accept(socket));
  let handingOver = false;
  link.onHandOver(() => {
    if (stopping) return;
    stopping = true;
    handingOver = true;
    app.log.info('Restarting: handing connections over to the next server process');
    const slow = setInterval(() => app.log.warn({ waiting: pool.describe() }, 'Still handing over'), 5000);
    slow.unref();
    void pool
      .handOver(
        (socket) => link.handBack(socket),
        async () => {
          // Closing the HTTP server closes its idle connections: the handed-back ones must be gone first.
          await link.handBacksSent();
          await app.close();
          await store.close();
        },
      )
      .then(() => link.handBacksSent())
      .finally(() => process.exit(0));
  });
  const stop = (reason: string) => {
    // Asked to stop while handing over: the rest of the hand-over happens at once.
    if (handingOver) pool.closeNow();
    else void shutdown(reason, 0, () => pool.close());
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // The supervisor is gone (killed): nobody can pass connections any more, so stop too.
  process.on('disconnect', () => stop('supervisor gone'));
  link.ready();
  app.log.info(
    `Serving on http://${config.host}:${config.port} (store: ${store.kind}, data: ${config.dataDir})`,
  );
}

main().catch((error) => {
  if (error instanceof StartupError) {
    console.error(error.message);
    process.exit(FOLDER_EXIT_CODE);
  }
  console.error(error);
  process.exit(1);
});
