// `npm start`: builds the web client if needed, then runs the server under the supervisor
// (scripts/supervisor.mjs), which owns the port and restarts the server without dropping anyone.
import { buildIfStale } from './build-if-stale.mjs';
import { supervise } from './supervisor.mjs';

buildIfStale();
supervise();
