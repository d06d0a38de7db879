// The plainest server of one file's byte ranges (node:http, fs.createReadStream, no checks), as a
// yardstick for the lesson-file links: what this machine gives when nothing but the bytes is done.
// Usage: node bench/support/bare-file-server.mjs FILE   (prints its port, serves until killed)
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';

const file = process.argv[2];
const size = statSync(file).size;
const server = createServer((request, response) => {
  const match = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
  const start = match ? Number(match[1]) : 0;
  const end = match?.[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  response.writeHead(match ? 206 : 200, {
    'content-type': 'video/mp4',
    'content-length': String(end - start + 1),
    ...(match ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
  });
  createReadStream(file, { start, end }).pipe(response);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
