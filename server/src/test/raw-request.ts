import { connect } from 'node:net';

/**
 * Sends `head` (a request line and headers, then whatever should follow them: a body's first
 * bytes or nothing) as written, on a connection of its own, and never more: a request announcing
 * a body that does not come, as a slow or hostile client sends it. Answers the status of the
 * server's answer (0 if none came) and whether the server closed the connection within `waitMs`.
 */
export function rawRequest(
  base: string,
  head: string,
  waitMs = 2000,
): Promise<{ status: number; closed: boolean }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let status = 0;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      status ||= Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
    });
    socket.on('close', () => resolve({ status, closed: true }));
    socket.on('error', reject);
    setTimeout(() => {
      resolve({ status, closed: false });
      socket.destroy();
    }, waitMs).unref();
    socket.write(head);
  });
}
