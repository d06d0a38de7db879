import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type AppServerSettings, appServerFieldSchemas } from '@common/schemas/app-server';
import { writeFileDurably } from '../lib/durable-file';
import { folderMessage, StartupError } from '../lib/startup-error';

/**
 * The console's application-server settings on disk: DATA_DIR/app-server.json, readable by
 * the owner only (it may hold the session secret). The only code that touches that file.
 */
export const APP_SERVER_FILE = 'app-server.json';

export function appServerFilePath(dataDir: string): string {
  return path.join(dataDir, APP_SERVER_FILE);
}

export interface SavedSettings {
  values: Partial<AppServerSettings>;
  /** One line per unreadable value, naming the field. */
  problems: string[];
}

/** Synchronous, because the config is read once at start-up before anything else runs. */
export function readSavedSettings(dataDir: string): SavedSettings {
  const file = appServerFilePath(dataDir);
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { values: {}, problems: [] };
    // The folder itself is the problem (a file, no permission): say so in one line.
    throw new StartupError(folderMessage('data folder (DATA_DIR)', dataDir, 'DATA_DIR', error));
  }
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { values: {}, problems: [`${file}: not valid JSON`] };
  }
  if (!data || typeof data !== 'object') return { values: {}, problems: [`${file}: not a JSON object`] };

  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [field, schema] of Object.entries(appServerFieldSchemas)) {
    const given = (data as Record<string, unknown>)[field];
    if (given === undefined) continue;
    const parsed = schema.safeParse(given);
    if (parsed.success) values[field] = parsed.data;
    else problems.push(`${file}: ${parsed.error.issues[0]?.message ?? `${field} is invalid`}`);
  }
  return { values: values as Partial<AppServerSettings>, problems };
}

/** Writes the whole file, 0600, through lib/durable-file.ts: a crash leaves the old file or the new one. */
export async function writeSavedSettings(dataDir: string, values: Partial<AppServerSettings>): Promise<void> {
  await writeFileDurably(appServerFilePath(dataDir), `${JSON.stringify(values, null, 2)}\n`);
}
