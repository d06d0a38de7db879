import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { NginxConfig } from '@common/nginx-defaults';
import type { NginxHistoryEntry } from '@common/schemas/nginx';
import { writeFileDurably } from '../../lib/durable-file';

/** SPEC: the last 20 saved versions are kept. */
export const HISTORY_LIMIT = 20;

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The saved settings and their history, as files under DATA_DIR/nginx rather than in the store:
 * they describe this machine's nginx, which several app processes sharing one database do not share.
 */
export class NginxStore {
  constructor(
    private readonly settingsFile: string,
    private readonly historyFile: string,
  ) {}

  savedConfig(): Promise<NginxConfig | null> {
    return readJson<NginxConfig>(this.settingsFile);
  }

  async history(): Promise<NginxHistoryEntry[]> {
    return (await readJson<NginxHistoryEntry[]>(this.historyFile)) ?? [];
  }

  /** Records a version that is now live: the settings, then the history with it on top. */
  async record(entry: Omit<NginxHistoryEntry, 'id' | 'savedAt'>): Promise<NginxHistoryEntry> {
    const saved: NginxHistoryEntry = {
      id: randomBytes(6).toString('hex'),
      savedAt: new Date().toISOString(),
      ...entry,
    };
    await writeFileDurably(this.settingsFile, `${JSON.stringify(entry.config, null, 2)}\n`);
    const history = [saved, ...(await this.history())].slice(0, HISTORY_LIMIT);
    await writeFileDurably(this.historyFile, `${JSON.stringify(history, null, 2)}\n`);
    return saved;
  }
}
