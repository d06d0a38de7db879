import { connect } from 'node:net';
import { MONGO_TIME_LIMIT_MS } from '../../store/mongo/inspector';

/**
 * Opens and closes a plain TCP connection first: a refused port is known in milliseconds,
 * where the driver would keep retrying it until its 5-second server selection gives up.
 */
export function probePort(host: string, port: number, timeoutMs = MONGO_TIME_LIMIT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.setTimeout(timeoutMs);
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(Object.assign(new Error(`connect ETIMEDOUT ${host}:${port}`), { code: 'ETIMEDOUT' }));
    });
    socket.once('error', (error) => {
      socket.destroy();
      reject(error);
    });
  });
}

/** The failure of a connection in words an owner understands; the driver's own text stays beside it. */
export function plainReason(error: unknown, host: string, port: number): { reason: string; detail: string } {
  const detail = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const text = `${String(code ?? '')} ${detail} ${String((error as { cause?: unknown }).cause ?? '')}`;
  const seconds = Math.round(MONGO_TIME_LIMIT_MS / 1000);
  let reason = detail;
  if (/ECONNREFUSED/.test(text)) reason = `Nothing is listening on ${host}:${port}`;
  else if (/ENOTFOUND|EAI_AGAIN/.test(text)) reason = `No server is known by the name ${host}`;
  else if (code === 18 || /Authentication failed|auth.*fail/i.test(text))
    reason = 'Wrong user name or password';
  else if (/ETIMEDOUT|timed out|Server selection timed out/i.test(text))
    reason = `The server did not answer within ${seconds} seconds`;
  return { reason, detail };
}
