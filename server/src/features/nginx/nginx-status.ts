import { readFile } from 'node:fs/promises';
import type { NginxState, NginxStatusResponse } from '@common/schemas/nginx';
import type { NginxBinary } from './nginx-binary';
import { nginxErrorLine } from './nginx-errors';
import { configArgs, type NginxLayout } from './nginx-layout';
import { type NginxProcesses, processesOfLayout, readPid } from './nginx-process';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 'es'}`;

/**
 * Running: a live master of this configuration (the count is every nginx process of it: masters,
 * workers and any orphaned workers). Error: workers serve without their master (it was killed),
 * the files on disk fail `nginx -t`, or nginx died without removing its pid file. Unknown: no nginx.
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
  const found: NginxProcesses = await processesOfLayout(layout);
  const count = found.masters.length + found.workers.length + found.orphans.length;
  if (found.masters.length > 0) {
    const where = layout.mode === 'managed' ? `the app's own instance in ${layout.dir}` : layout.mainConf;
    const leftovers =
      found.orphans.length > 0
        ? ` ${plural(found.orphans.length, 'process')} of an earlier nginx whose master is gone still run; ` +
          'Restart stops them.'
        : '';
    return answer('running', `nginx is running (${where}).${leftovers}`, version, count);
  }
  if (found.orphans.length > 0) {
    return answer(
      'error',
      `nginx's master process is gone, yet ${plural(found.orphans.length, 'worker process')} ` +
        `(${found.orphans.join(', ')}) still serve the old configuration without it. ` +
        'Restart stops them and starts nginx again on the same port.',
      version,
      count,
    );
  }
  const pid = await readPid(layout.pidFile);
  if (pid) {
    return answer(
      'error',
      `nginx is not running, yet its pid file still names process ${pid}: it stopped without cleaning up. ` +
        `See ${layout.errorLog}. Start starts it again.`,
      version,
    );
  }
  const hasSite = await readFile(layout.siteFile).then(
    () => true,
    () => false,
  );
  if (!hasSite)
    return answer('stopped', 'nginx is not running. Start starts it with this configuration.', version);
  const test = await nginx.test(located.path, configArgs(layout));
  if (!test.ok) return answer('error', nginxErrorLine(test.output), version);
  return answer('stopped', 'nginx is not running. Start starts it.', version);
}
