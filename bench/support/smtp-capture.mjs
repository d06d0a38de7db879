// An SMTP server (smtp-server) in a worker thread of its own, for benchmarks that time mail:
// it receives bulk mail by the hundred a second, and on the benchmark's own event loop that work
// would delay the clock timing the mail being measured. It tells the parent, with times on the
// epoch clock (performance.timeOrigin + performance.now(), comparable across threads):
//   { kind: 'listening', port }
//   { kind: 'mail', to: [addresses], connectedAt, acceptedAt }  (connectedAt: when the TCP
//     connection that carried it was opened; smtp-server waits 100 ms after that before greeting)
import { parentPort } from 'node:worker_threads';
import { SMTPServer } from 'smtp-server';

const now = () => performance.timeOrigin + performance.now();
const connectedAt = new Map();
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    stream.resume();
    stream.on('end', () => {
      parentPort.postMessage({
        kind: 'mail',
        to: session.envelope.rcptTo.map(({ address }) => address),
        connectedAt: connectedAt.get(session.remotePort) ?? Number.NaN,
        acceptedAt: now(),
      });
      callback();
    });
  },
});
smtp.on('error', () => undefined);
smtp.server.on('connection', (socket) => {
  connectedAt.set(socket.remotePort, now());
  socket.on('close', () => setTimeout(() => connectedAt.delete(socket.remotePort), 1_000));
});
smtp.listen(0, '127.0.0.1', () =>
  parentPort.postMessage({ kind: 'listening', port: smtp.server.address().port }),
);
parentPort.on('message', (message) => {
  if (message === 'close') smtp.close(() => process.exit(0));
});
