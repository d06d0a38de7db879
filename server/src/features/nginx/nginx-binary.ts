import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { NginxSettings } from '../../settings/nginx-settings';

/** Debian and most distributions install it here, outside an unprivileged user's PATH. */
const FALLBACK_BINARY = '/usr/sbin/nginx';
/** Starting waits out nginx's own bind retries (5 x 500 ms) before it gives up. */
const RUN_TIMEOUT_MS = 20_000;

export interface RunResult {
  ok: boolean;
  /** stderr and stdout together: nginx writes its messages (even `-v`) to stderr. */
  output: string;
}

/**
 * All the environment a program run from here gets: where programs live (for a start or reload
 * command such as sudo) and a plain locale. Never the app's own environment, which holds
 * ADMIN_PASSWORD, JWT_SECRET, SMTP_URL and MONGODB_URI.
 */
export function childEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH || '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    LC_ALL: 'C',
  };
}

/** Runs a program with an argument list, never through a shell, with childEnv() only. */
export function run(file: string, args: string[], timeoutMs = RUN_TIMEOUT_MS): Promise<RunResult> {
  return new Promise((resolve) => {
    const options = { timeout: timeoutMs, maxBuffer: 1024 * 1024, env: childEnv() };
    execFile(file, args, options, (error, stdout, stderr) => {
      const output = `${stderr}${stdout}`.trim();
      if (!error) return resolve({ ok: true, output });
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? `${file} was not found` : error.message;
      resolve({ ok: false, output: output || reason });
    });
  });
}

async function executable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export type Located = { path: string } | { missing: string };

/**
 * The one module that runs nginx. Which binary is set by NGINX_BIN (else `nginx` on PATH, else
 * /usr/sbin/nginx) and is looked up on every use, so installing nginx needs no app restart.
 */
export class NginxBinary {
  constructor(private readonly settings: NginxSettings) {}

  async locate(): Promise<Located> {
    const wanted = this.settings.bin ?? 'nginx';
    if (wanted.includes('/')) {
      return (await executable(wanted))
        ? { path: wanted }
        : { missing: `nginx is not installed: NGINX_BIN (${wanted}) is not an executable file` };
    }
    for (const dir of this.settings.searchPath.split(path.delimiter).filter(Boolean)) {
      const candidate = path.join(dir, wanted);
      if (await executable(candidate)) return { path: candidate };
    }
    if (!this.settings.bin && (await executable(FALLBACK_BINARY))) return { path: FALLBACK_BINARY };
    const where = this.settings.bin ? 'on PATH' : `on PATH or at ${FALLBACK_BINARY}`;
    return { missing: `nginx is not installed: "${wanted}" was not found ${where}` };
  }

  /** `nginx -v` answers on stderr: "nginx version: nginx/1.22.1". */
  async version(binary: string): Promise<string | null> {
    const result = await run(binary, ['-v'], 5000);
    return /nginx\/([\w.-]+)/.exec(result.output)?.[1] ?? null;
  }

  /** `nginx -t`: the whole configuration, as nginx itself would load it. */
  test(binary: string, configArgs: string[]): Promise<RunResult> {
    return run(binary, [...configArgs, '-t']);
  }

  /** Starts the master process, which daemonises: it outlives this call and this app. */
  start(binary: string, configArgs: string[]): Promise<RunResult> {
    return run(this.settings.startCommand?.[0] ?? binary, this.settings.startCommand?.slice(1) ?? configArgs);
  }

  /** Graceful reload: new workers take the new config, old ones finish their open connections. */
  reload(binary: string, configArgs: string[]): Promise<RunResult> {
    const custom = this.settings.reloadCommand;
    return custom ? run(custom[0]!, custom.slice(1)) : run(binary, [...configArgs, '-s', 'reload']);
  }

  /** Graceful stop (used by tests and benchmarks; the console has no stop button). */
  quit(binary: string, configArgs: string[]): Promise<RunResult> {
    return run(binary, [...configArgs, '-s', 'quit']);
  }
}
