import { readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import { isProcessAlive } from '../../lib/process-alive';

/** The pid nginx wrote, or null when there is no readable pid file. */
export async function readPid(pidFile: string): Promise<number | null> {
  try {
    const pid = Number.parseInt((await readFile(pidFile, 'utf8')).trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

interface ProcInfo {
  pid: number;
  ppid: number;
  name: string;
  /** 'Z' is a zombie: it has exited and only waits for its parent to notice. */
  state: string;
}

/** /proc/<pid>/stat: "pid (name) state ppid ...", where the name itself may hold spaces or brackets. */
async function procInfo(pid: number): Promise<ProcInfo | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const [state = '', ppid = '0'] = stat.slice(close + 2).split(' ');
    return { pid, ppid: Number(ppid), name: stat.slice(stat.indexOf('(') + 1, close), state };
  } catch {
    return null;
  }
}

const hasProc = async () => (await procInfo(process.pid)) !== null;

/** True when `pid` is a live nginx process (a reused pid of another program does not count). */
export async function isNginxAlive(pid: number): Promise<boolean> {
  // Without /proc (not Linux) a signal 0 tells whether the pid lives, not what it is.
  if (!(await hasProc())) return isProcessAlive(pid);
  const info = await procInfo(pid);
  return info !== null && info.state !== 'Z' && info.name.startsWith('nginx');
}

/** The live children of the master: its workers (and cache helpers), by pid. */
export async function workerPids(masterPid: number): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const infos = await Promise.all(entries.filter((e) => /^\d+$/.test(e)).map((e) => procInfo(Number(e))));
  return infos
    .filter((info): info is ProcInfo => info !== null && info.ppid === masterPid && info.state !== 'Z')
    .map((info) => info.pid)
    .sort((a, b) => a - b);
}

/** Every nginx process of one configuration, as /proc shows them. */
export interface NginxProcesses {
  /** Live masters started on this configuration. */
  masters: number[];
  /** Workers (and cache helpers) of those masters. */
  workers: number[];
  /** nginx processes of this configuration whose master is gone (killed): they still serve. */
  orphans: number[];
}

async function procEntries(): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  return entries.filter((e) => /^\d+$/.test(e)).map(Number);
}

const cmdline = (pid: number) =>
  readFile(`/proc/${pid}/cmdline`, 'utf8').then(
    (text) => text.replaceAll('\0', ' ').trim(),
    () => '',
  );

/** True when the process holds a file under `folder` open (nginx workers keep their logs open). */
async function holdsFileUnder(pid: number, folder: string): Promise<boolean> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    if (target.startsWith(folder)) return true;
  }
  return false;
}

/**
 * Finds the nginx processes of a configuration through /proc: masters by their command line
 * (`nginx: master process … -c <mainConf>`), their workers by parent, and workers whose master died
 * by the files they hold open under `logsDir` (a worker's command line names no configuration).
 */
export async function nginxProcessesOf(mainConf: string, logsDir: string): Promise<NginxProcesses> {
  const infos = (await Promise.all((await procEntries()).map(procInfo))).filter(
    (info): info is ProcInfo => info !== null && info.state !== 'Z' && info.name.startsWith('nginx'),
  );
  const candidates: ProcInfo[] = [];
  for (const info of infos) {
    const line = await cmdline(info.pid);
    if (line.startsWith('nginx: master process') && line.split(' ').includes(mainConf)) candidates.push(info);
  }
  // A worker forked a moment ago still carries its master's command line: its parent tells.
  const masters = candidates
    .filter((info) => !candidates.some((other) => other.pid === info.ppid))
    .map((info) => info.pid);
  const workers = infos.filter((info) => masters.includes(info.ppid)).map((info) => info.pid);
  const orphans: number[] = [];
  const folder = logsDir.endsWith('/') ? logsDir : `${logsDir}/`;
  for (const info of infos) {
    if (masters.includes(info.pid) || workers.includes(info.pid)) continue;
    const parent = infos.find((candidate) => candidate.pid === info.ppid);
    // A worker of another, living master is that master's business (e.g. another prefix).
    if (parent && (await cmdline(parent.pid)).startsWith('nginx: master process')) continue;
    if (await holdsFileUnder(info.pid, folder)) orphans.push(info.pid);
  }
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
  return { masters: sorted(masters), workers: sorted(workers), orphans: sorted(orphans) };
}

/** Stops processes: SIGTERM (nginx's fast shutdown), then SIGKILL for any still there after `graceMs`. */
export async function stopProcesses(pids: number[], graceMs = 2000): Promise<void> {
  const signal = (pid: number, name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // Gone already.
    }
  };
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  for (;;) {
    const alive: number[] = [];
    for (const pid of pids) if (await isNginxAlive(pid)) alive.push(pid);
    if (alive.length === 0) return;
    if (Date.now() > deadline) {
      for (const pid of alive) signal(pid, 'SIGKILL');
      if (Date.now() > deadline + 2000) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The processes of a layout: by command line and open log files, plus the master its pid file
 * names (a system nginx started by systemd carries no `-c` on its command line).
 */
export async function processesOfLayout(layout: {
  mainConf: string;
  errorLog: string;
  pidFile: string;
}): Promise<NginxProcesses> {
  const found = await nginxProcessesOf(layout.mainConf, path.dirname(layout.errorLog));
  const pid = await readPid(layout.pidFile);
  if (pid && !found.masters.includes(pid) && (await isNginxAlive(pid))) {
    const workers = await workerPids(pid);
    return {
      masters: [...found.masters, pid],
      workers: [...new Set([...found.workers, ...workers])],
      orphans: found.orphans.filter((orphan) => !workers.includes(orphan)),
    };
  }
  return found;
}
