import { mkdir } from 'node:fs/promises';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openStore } from './store/open-store';

/** Exit code that asks the supervisor (scripts/start.mjs) to start the server again. */
export const RESTART_EXIT_CODE = 75;

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG: do not restart, a person has to fix the environment
    }
    throw error;
  }

  await mkdir(config.dataDir, { recursive: true });
  const store = await openStore(config);
  const app = await buildApp({
    config,
    store,
    logger: { level: config.logLevel },
    requestRestart: () => void shutdown('restart', RESTART_EXIT_CODE),
  });

  let closing = false;
  async function shutdown(signal: string, exitCode = 0): Promise<void> {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'Shutting down');
    const forced = setTimeout(() => process.exit(exitCode || 1), 10_000);
    forced.unref();
    await app.close();
    await store.close();
    process.exit(exitCode);
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Serving on http://${config.host}:${config.port} (store: ${store.kind}, data: ${config.dataDir})`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
