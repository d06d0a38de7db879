import { chmod, mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../lib/app-error';
import { writeFileDurably } from '../../lib/durable-file';
import { TRAVERSE_ONLY } from '../../lib/private-files';
import type { NginxBinary } from './nginx-binary';
import { nginxErrorLine } from './nginx-errors';
import { configArgs, type NginxLayout, renderMainConf } from './nginx-layout';
import { isNginxAlive, readPid } from './nginx-process';

const START_WAIT_MS = 5000;

async function readOrNull(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Files as they were before a change, to put back when nginx does not take the new ones. */
type Snapshot = Array<{ file: string; text: string | null }>;

/**
 * The files nginx reads. A new server block is tested with `nginx -t` against the whole
 * configuration before it takes the live file's place, and the live file comes back if the
 * running nginx then refuses it.
 */
export class NginxFiles {
  constructor(
    private readonly layout: NginxLayout,
    private readonly nginx: NginxBinary,
  ) {}

  async siteExists(): Promise<boolean> {
    return (await readOrNull(this.layout.siteFile)) !== null;
  }

  liveSite(): Promise<string | null> {
    return readOrNull(this.layout.siteFile);
  }

  /** Tests, swaps in, and reloads through `reload` when nginx runs. Throws with nginx's own error line. */
  async apply(binary: string, site: string, reload?: (master: number) => Promise<void>): Promise<void> {
    const previous =
      this.layout.mode === 'managed'
        ? await this.swapInManaged(binary, site)
        : await this.swapInSystem(binary, site);
    const master = await readPid(this.layout.pidFile);
    if (!reload || !master || !(await isNginxAlive(master))) return;
    try {
      await reload(master);
    } catch (error) {
      await this.restore(previous);
      throw error;
    }
  }

  /**
   * The managed instance's whole configuration is ours, so the candidate is tested through a
   * candidate main file that includes it: the live files are not touched until nginx agrees.
   */
  private async swapInManaged(binary: string, site: string): Promise<Snapshot> {
    const { mainConf, siteFile } = this.layout;
    await this.prepareManagedFolders();
    const candidateSite = path.join(path.dirname(siteFile), 'site.candidate.conf');
    const candidateMain = path.join(path.dirname(mainConf), 'nginx.candidate.conf');
    await writeFileDurably(candidateSite, site);
    await writeFileDurably(candidateMain, renderMainConf(this.layout, candidateSite));
    const test = await this.nginx.test(binary, configArgs(this.layout, candidateMain));
    await rm(candidateMain, { force: true });
    if (!test.ok) {
      await rm(candidateSite, { force: true });
      throw rejected(test.output.replaceAll(candidateSite, siteFile).replaceAll(candidateMain, mainConf));
    }
    const previous: Snapshot = [
      { file: siteFile, text: await readOrNull(siteFile) },
      { file: mainConf, text: await readOrNull(mainConf) },
    ];
    // A move, not a write: the tested candidate is whole on the disk already, and the main file's
    // write below flushes this folder.
    await rename(candidateSite, siteFile);
    await writeFileDurably(mainConf, renderMainConf(this.layout, siteFile));
    return previous;
  }

  /**
   * A system nginx's main file is not ours and may include the site file by a pattern, so the
   * candidate goes in the site file's place for the test and the old file is back at once if
   * nginx refuses it. The running nginx is not reloaded until the test passes.
   */
  private async swapInSystem(binary: string, site: string): Promise<Snapshot> {
    const previous: Snapshot = [{ file: this.layout.siteFile, text: await readOrNull(this.layout.siteFile) }];
    await writeFileDurably(this.layout.siteFile, site);
    const test = await this.nginx.test(binary, configArgs(this.layout));
    if (!test.ok) {
      await this.restore(previous);
      throw rejected(test.output);
    }
    return previous;
  }

  private async restore(snapshot: Snapshot): Promise<void> {
    for (const { file, text } of snapshot) {
      if (text === null) await rm(file, { force: true });
      else await writeFileDurably(file, text);
    }
  }

  private async prepareManagedFolders(): Promise<void> {
    for (const folder of ['conf', 'logs', 'temp']) {
      await mkdir(path.join(this.layout.dir, folder), { recursive: true });
    }
    // nginx's workers (nobody, when started by root) pass through these to their temp folders;
    // everything else here stays the owner's alone.
    for (const folder of [this.layout.dir, path.join(this.layout.dir, 'temp')])
      await chmod(folder, TRAVERSE_ONLY);
  }

  /** Starts nginx on the live files after testing them, and waits for its master process. */
  async start(binary: string): Promise<void> {
    if (this.layout.mode === 'managed') await this.prepareManagedFolders();
    const args = configArgs(this.layout);
    const test = await this.nginx.test(binary, args);
    if (!test.ok) throw rejected(test.output);
    const started = await this.nginx.start(binary, args);
    if (!started.ok)
      throw new AppError('CONFLICT', `nginx could not start: ${nginxErrorLine(started.output)}`);
    const deadline = Date.now() + START_WAIT_MS;
    while (Date.now() < deadline) {
      const pid = await readPid(this.layout.pidFile);
      if (pid && (await isNginxAlive(pid))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new AppError(
      'CONFLICT',
      `nginx did not start within ${START_WAIT_MS / 1000} s: see ${this.layout.errorLog}`,
    );
  }
}

function rejected(output: string): AppError {
  return new AppError('VALIDATION', `nginx rejected the configuration: ${nginxErrorLine(output)}`);
}
