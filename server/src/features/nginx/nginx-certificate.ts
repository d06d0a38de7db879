import { constants } from 'node:fs';
import { access, chmod, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../lib/app-error';
import { writeFileDurably } from '../../lib/durable-file';
import { run } from './nginx-binary';

export interface Certificate {
  cert: string;
  key: string;
  /** Made for a trial run (here with openssl, or by Let's Encrypt's staging server): browsers warn, and HSTS is never sent with it. */
  selfSigned: boolean;
}

const TRIAL_DAYS = '90';
const TRIAL_MARKER = 'self-signed.txt';

const readable = (file: string) =>
  access(file, constants.R_OK).then(
    () => true,
    () => false,
  );

/**
 * The certificate and key for HTTPS: NGINX_SSL_CERT and NGINX_SSL_KEY when set, else cert.pem and
 * key.pem in `sslDir`. When that folder holds neither, a self-signed pair is made with openssl
 * so that HTTPS can be tried at once; a pair put there later replaces it.
 */
export async function ensureCertificate(
  own: { cert?: string; key?: string },
  sslDir: string,
  serverName: string,
): Promise<Certificate> {
  if (own.cert && own.key) {
    for (const [name, file] of [
      ['NGINX_SSL_CERT', own.cert],
      ['NGINX_SSL_KEY', own.key],
    ] as const) {
      if (!(await readable(file)))
        throw new AppError('VALIDATION', `SSL enabled: ${name} (${file}) cannot be read`);
    }
    return { cert: own.cert, key: own.key, selfSigned: false };
  }
  const cert = path.join(sslDir, 'cert.pem');
  const key = path.join(sslDir, 'key.pem');
  const [hasCert, hasKey] = await Promise.all([readable(cert), readable(key)]);
  if (hasCert && hasKey) return { cert, key, selfSigned: await readable(path.join(sslDir, TRIAL_MARKER)) };
  if (hasCert !== hasKey) {
    throw new AppError('VALIDATION', `SSL enabled: put both cert.pem and key.pem in ${sslDir}, or neither`);
  }
  await makeSelfSigned(sslDir, cert, key, serverName);
  return { cert, key, selfSigned: true };
}

async function makeSelfSigned(sslDir: string, cert: string, key: string, serverName: string): Promise<void> {
  // The server name passed the form's allow-list; it is also only ever an argument, never shell text.
  const names = serverName.split(' ').filter((name) => name !== '_' && !name.startsWith('*'));
  const commonName = names[0] ?? 'localhost';
  const altNames = [...new Set([...names, 'localhost'])].map((name) => `DNS:${name}`).concat('IP:127.0.0.1');
  await mkdir(sslDir, { recursive: true, mode: 0o700 });
  const made = await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    TRIAL_DAYS,
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    `subjectAltName=${altNames.join(',')}`,
  ]);
  if (!made.ok) {
    await Promise.all([rm(cert, { force: true }), rm(key, { force: true })]);
    throw new AppError(
      'VALIDATION',
      `SSL enabled: no certificate in ${sslDir} and openssl could not make a trial one (${made.output.split('\n')[0]}). ` +
        'Put cert.pem and key.pem there, or set NGINX_SSL_CERT and NGINX_SSL_KEY.',
    );
  }
  await chmod(key, 0o600);
  await writeFileDurably(
    path.join(sslDir, TRIAL_MARKER),
    `cert.pem and key.pem here were made by the console for a trial run (self-signed, ${TRIAL_DAYS} days).\n` +
      'Replace both with your own certificate and key, and delete this file.\n',
  );
}

/**
 * Puts an obtained certificate in `sslDir` as cert.pem and key.pem (the key 0600), in place of a
 * trial one or an older one; answers how to put back what was there, should nginx refuse it.
 */
export async function swapCertificate(
  sslDir: string,
  pem: { cert: string; key: string; trial?: boolean },
): Promise<() => Promise<void>> {
  const files = {
    cert: path.join(sslDir, 'cert.pem'),
    key: path.join(sslDir, 'key.pem'),
    marker: path.join(sslDir, TRIAL_MARKER),
  };
  const before = Object.fromEntries(
    await Promise.all(
      Object.entries(files).map(
        async ([name, file]) => [name, await readFile(file).catch(() => null)] as const,
      ),
    ),
  ) as Record<keyof typeof files, Buffer | null>;
  await mkdir(sslDir, { recursive: true, mode: 0o700 });
  await writeFileDurably(files.key, pem.key);
  await writeFileDurably(files.cert, pem.cert);
  // A staging certificate is a trial too: browsers do not trust it, so HSTS must never come with it.
  if (pem.trial)
    await writeFileDurably(
      files.marker,
      "cert.pem and key.pem here come from Let's Encrypt's staging server, for a trial: browsers do not trust them.\n",
    );
  else await rm(files.marker, { force: true });
  return async () => {
    for (const name of Object.keys(files) as Array<keyof typeof files>) {
      const text = before[name];
      if (text === null) await rm(files[name], { force: true });
      else await writeFileDurably(files[name], text);
    }
  };
}
