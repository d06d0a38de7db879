// `npm start`: builds the web client if needed, then runs the server under a tiny supervisor
// that starts it again when it exits with RESTART_EXIT_CODE (the console's "Restart Server").
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const RESTART_EXIT_CODE = 75;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

buildIfStale();

let child;
function run() {
  child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    if (code === RESTART_EXIT_CODE) {
      console.log('Restarting the server…');
      run();
      return;
    }
    process.exit(code ?? (signal ? 1 : 0));
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child?.kill(signal));
run();
