import { readdir, readFile } from 'node:fs/promises';

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

/** Without /proc (not Linux) a signal 0 tells whether the pid lives, not what it is. */
function signalAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when `pid` is a live nginx process (a reused pid of another program does not count). */
export async function isNginxAlive(pid: number): Promise<boolean> {
  if (!(await hasProc())) return signalAlive(pid);
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
