import { rm } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../server/src/test/free-port';
import { nginxProcessesUnder, readableTempDir, stopNginx } from '../../server/src/test/real-nginx';
import { confirmPassword, type Product, signIn, startProduct } from './product';

export interface TwoInstances {
  /** Instance A: creates the administrator and drives nginx. */
  a: Product;
  /** Instance B, the second machine (replaced by `restartB`). */
  b: Product;
  /** nginx, with both instances as its proxy targets. */
  nginx: string;
  /** The administrator's token. */
  admin: string;
  /** The media folder both instances use (MEDIA_DIR). */
  mediaDir: string;
  /** Each instance's own DATA_DIR. */
  dataDirs: { a: string; b: string };
  /** Starts B again on its DATA_DIR and port, after it was stopped or killed. */
  restartB(): Promise<Product>;
  /** The Nginx panel's Restart on A: a graceful reload, after which nginx tries every instance again. */
  reloadNginx(): Promise<void>;
  /** Stops nginx and both instances and removes their folders; answers nginx processes left alive. */
  stop(): Promise<number[]>;
}

/**
 * "Several machines" (docs/processes.md) on one host: two `npm start` instances, each with its own
 * DATA_DIR and port, on one MongoDB (`mongoUri`), one media folder and one JWT_SECRET; A lists
 * both in its Nginx panel and starts nginx from it, as an owner would.
 */
export async function startTwoInstances(options: {
  mongoUri: string;
  admin: { email: string; password: string };
  jwtSecret: string;
  /** More environment for both, e.g. a log level. */
  env?: Record<string, string>;
}): Promise<TwoInstances> {
  // nginx's workers (user nobody when run as root) read the static files from here.
  const root = await readableTempDir('two-instances-');
  const mediaDir = path.join(root, 'shared-media');
  const nginxDir = path.join(root, 'a', 'nginx');
  const products: Product[] = [];
  const start = async (name: string, port?: number, extra: Record<string, string> = {}) => {
    const dataDir = path.join(root, name);
    const product = await startProduct({
      dataDir,
      logFile: `${dataDir}.log`,
      port,
      env: {
        MONGODB_URI: options.mongoUri,
        JWT_SECRET: options.jwtSecret,
        MEDIA_DIR: mediaDir,
        NGINX_LISTEN_ADDRESS: '127.0.0.1',
        ...options.env,
        ...extra,
      },
    });
    products.push(product);
    return product;
  };
  const stop = async () => {
    const left = await stopNginx(path.join(nginxDir, 'logs', 'nginx.pid'));
    const strays = await nginxProcessesUnder(nginxDir);
    for (const product of products) await product.stop();
    await rm(root, { recursive: true, force: true });
    return [...left, ...strays];
  };

  try {
    // One after the other: the first start may build the client, and A creates the administrator.
    const a = await start('a', undefined, {
      ADMIN_EMAIL: options.admin.email,
      ADMIN_PASSWORD: options.admin.password,
    });
    const b = await start('b');
    const admin = await signIn(a.url, options.admin);
    const panel = async (pathname: string, body?: object) => {
      const response = await fetch(`${a.url}${pathname}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${admin}`,
          'x-reauth': await confirmPassword(a.url, admin, options.admin.password),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${await response.text()}`);
    };
    const nginxPort = await freePort();
    await panel('/api/system/config', { port: nginxPort, proxyPass: `${a.url} ${b.url}` });
    await panel('/api/system/restart');
    const site: TwoInstances = {
      a,
      b,
      nginx: `http://127.0.0.1:${nginxPort}`,
      admin,
      mediaDir,
      dataDirs: { a: path.join(root, 'a'), b: path.join(root, 'b') },
      async restartB() {
        site.b = await start('b', site.b.port);
        return site.b;
      },
      reloadNginx: () => panel('/api/system/restart'),
      stop,
    };
    return site;
  } catch (error) {
    await stop();
    throw error;
  }
}
