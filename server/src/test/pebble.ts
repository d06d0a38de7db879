import { type ChildProcess, execFile, type SpawnOptions, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const PEBBLE = '/usr/bin/pebble';
const CHALLTESTSRV = '/usr/bin/pebble-challtestsrv';

/** Whether Pebble is here; on CI a missing Pebble fails the run instead of skipping. */
export function pebbleForTests(): boolean {
  if (existsSync(PEBBLE) && existsSync(CHALLTESTSRV)) return true;
  if (process.env.CI) throw new Error('Pebble is missing: install it with `apt-get install -y pebble`');
  console.warn('Pebble is not installed: the certificate tests against it are skipped.');
  return false;
}

export interface Pebble {
  directoryUrl: string;
  /** The self-signed CA of Pebble's own HTTPS (the directory), for ACME_CA_FILE. */
  caFile: string;
  /** The root Pebble issues under, to check a served certificate against. */
  root(): Promise<string>;
  /** Makes Pebble's DNS answer `host` with `address` (every other name is 127.0.0.1). */
  pointAt(host: string, address: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Let's Encrypt's test server (Debian's `pebble`), with `pebble-challtestsrv` as its DNS: every
 * name is 127.0.0.1 unless told otherwise, and HTTP-01 is checked on `httpPort` (the test's nginx)
 * for real (PEBBLE_VA_ALWAYS_VALID=0). Certificates live `validitySeconds`.
 */
export async function startPebble({
  httpPort,
  validitySeconds,
}: {
  httpPort: number;
  validitySeconds: number;
}): Promise<Pebble> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pebble-'));
  const [acmePort, managementPort, dnsPort, dnsManagementPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const caFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    caFile,
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ]);
  const config = path.join(dir, 'pebble.json');
  await writeFile(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: caFile,
        privateKey: keyFile,
        httpPort,
        tlsPort: await freePort(),
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
        certificateValidityPeriod: validitySeconds,
      },
    }),
  );
  const quiet: SpawnOptions = { stdio: ['ignore', 'pipe', 'pipe'] };
  const children: ChildProcess[] = [
    spawn(
      CHALLTESTSRV,
      [
        '-dns01',
        `127.0.0.1:${dnsPort}`,
        '-http01',
        '',
        '-https01',
        '',
        '-tlsalpn01',
        '',
        '-management',
        `127.0.0.1:${dnsManagementPort}`,
        '-defaultIPv4',
        '127.0.0.1',
        '-defaultIPv6',
        '',
      ],
      quiet,
    ),
  ];
  const pebble = spawn(PEBBLE, ['-config', config, '-dnsserver', `127.0.0.1:${dnsPort}`], {
    ...quiet,
    env: {
      PATH: process.env.PATH ?? '',
      PEBBLE_VA_NOSLEEP: '1',
      PEBBLE_VA_ALWAYS_VALID: '0',
      PEBBLE_WFE_NONCEREJECT: '0',
      PEBBLE_AUTHZREUSE: '0',
    },
  });
  children.push(pebble);
  let log = '';
  for (const child of children) {
    child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  }
  const stop = async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map((child) =>
        child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null,
      ),
    );
    await rm(dir, { recursive: true, force: true });
  };
  const ca = await readFile(caFile, 'utf8');
  const deadline = Date.now() + 10_000;
  while (!log.includes('ACME directory available') || !log.includes('Starting management server')) {
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Pebble did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    directoryUrl: `https://127.0.0.1:${acmePort}/dir`,
    caFile,
    root: () => httpsText(`https://127.0.0.1:${managementPort}/roots/0`, ca),
    async pointAt(host, address) {
      const response = await fetch(`http://127.0.0.1:${dnsManagementPort}/add-a`, {
        method: 'POST',
        body: JSON.stringify({ host, addresses: [address] }),
      });
      if (!response.ok) throw new Error(`pebble-challtestsrv refused add-a: ${response.status}`);
    },
    stop,
  };
}

function httpsText(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
}
