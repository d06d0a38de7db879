// `npm start`: builds the web client and the server if needed (each when missing or older than
// its sources), then runs the built server (dist/server/main.js, plain JavaScript: no TypeScript
// compiler at run time) under the supervisor built with it (server/src/process/supervisor.ts,
// run in this process), which owns the port and restarts the server without dropping anyone.
import { pathToFileURL } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';
import { buildServerIfStale, SERVER_ENTRY, SUPERVISOR_ENTRY } from './build-server.mjs';

buildIfStale();
buildServerIfStale();
// V8's memory reducer shrinks a process's young generation after some quiet seconds; under the next
// load the server then collects garbage about five times as often and spends about a quarter more
// CPU per answer, for as long as it runs (measured in docs/performance.md). Without it the young
// generation stays the size the load has grown it to: the same at start, about 25 MB more per
// worker after a busy spell than once reduced.
const WORKER_NODE_OPTIONS = ['--no-memory-reducer'];

// Imported once built: it did not exist, or was stale, before the build above.
const { supervise } = await import(pathToFileURL(SUPERVISOR_ENTRY).href);
supervise({ entry: SERVER_ENTRY, execArgv: WORKER_NODE_OPTIONS });
