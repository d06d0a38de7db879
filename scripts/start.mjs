// `npm start`: builds the web client and the server if needed (each when missing or older than
// its sources), then runs the built server (dist/server/main.js, plain JavaScript: no TypeScript
// compiler at run time) under the supervisor (scripts/supervisor.mjs), which owns the port and
// restarts the server without dropping anyone.
import { buildIfStale } from './build-if-stale.mjs';
import { buildServerIfStale, SERVER_ENTRY } from './build-server.mjs';
import { supervise } from './supervisor.mjs';

buildIfStale();
buildServerIfStale();
supervise({ entry: SERVER_ENTRY, execArgv: [] });
