import { readFile } from 'node:fs/promises';
import type { NginxState, NginxStatusResponse } from '@common/schemas/nginx';
import type { NginxBinary } from './nginx-binary';
import { nginxErrorLine } from './nginx-errors';
import { configArgs, type NginxLayout } from './nginx-layout';
import { isNginxAlive, readPid, workerPids } from './nginx-process';

/**
 * Running: the pid file names a live nginx (the count is the master and its workers). Error: the
 * files on disk fail `nginx -t`, or nginx died without removing its pid file. Unknown: no nginx.
 */
export async function readStatus(layout: NginxLayout, nginx: NginxBinary): Promise<NginxStatusResponse> {
  const answer = (state: NginxState, message: string, version: string | null, processes = 0) => ({
    success: true as const,
    running: state === 'running',
    state,
    message,
    mode: layout.mode,
    stats: { version, processes },
  });

  const located = await nginx.locate();
  if ('missing' in located) return answer('unknown', located.missing, null);
  const version = await nginx.version(located.path);
  const pid = await readPid(layout.pidFile);
  if (pid && (await isNginxAlive(pid))) {
    const where = layout.mode === 'managed' ? `the app's own instance in ${layout.dir}` : layout.mainConf;
    return answer('running', `nginx is running (${where}).`, version, 1 + (await workerPids(pid)).length);
  }
  if (pid) {
    return answer(
      'error',
      `nginx is not running, yet its pid file still names process ${pid}: it stopped without cleaning up. ` +
        `See ${layout.errorLog}. Restart starts it again.`,
      version,
    );
  }
  const hasSite = await readFile(layout.siteFile).then(
    () => true,
    () => false,
  );
  if (!hasSite)
    return answer('stopped', 'nginx is not running. Restart starts it with this configuration.', version);
  const test = await nginx.test(located.path, configArgs(layout));
  if (!test.ok) return answer('error', nginxErrorLine(test.output), version);
  return answer('stopped', 'nginx is not running. Restart starts it.', version);
}
