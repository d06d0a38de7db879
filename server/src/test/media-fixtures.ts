import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

/**
 * Small, real files for the media tests, made in code: each starts the way its format must, so
 * content sniffing recognises it. Test-only (imported by *.test.ts and the benchmark).
 */
export const fixtures = {
  png: () =>
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
  jpeg: () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), Buffer.from('JFIF\0'), pad(64)]),
  gif: () => Buffer.concat([Buffer.from('GIF89a'), pad(64)]),
  svg: () =>
    Buffer.from(
      '<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>localStorage.getItem("token")</script></svg>',
    ),
  /** An ISO-BMFF (MP4) file: an `ftyp` box, then `size` bytes in all. */
  mp4: (size = 4096) => Buffer.concat([mp4Head(), pad(Math.max(0, size - 24))]),
  mp3: () => Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1'), mp3Frames()]),
  /** An Ogg page whose first stream is Vorbis (sound) or, with `theora`, a video stream. */
  ogg: (stream: 'vorbis' | 'theora' = 'vorbis') =>
    Buffer.concat([
      Buffer.from('OggS\x00\x02', 'latin1'),
      pad(22),
      Buffer.from(stream === 'vorbis' ? '\x01vorbis\x00' : '\x80theora\x00', 'latin1'),
      pad(64),
    ]),
  html: () => Buffer.from('<!doctype html><html><script>fetch("/steal?"+localStorage.token)</script></html>'),
  text: () => Buffer.from('just some words, not a picture'),
};

function pad(length: number): Buffer {
  return Buffer.alloc(length);
}

export function mp4Head(): Buffer {
  const head = Buffer.alloc(24);
  head.writeUInt32BE(24, 0);
  head.write('ftypisom', 4, 'latin1');
  head.writeUInt32BE(0x200, 12);
  head.write('isommp42', 16, 'latin1');
  return head;
}

function mp3Frames(): Buffer {
  // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz: 417-byte frames; a few in a row are recognised.
  const frame = Buffer.alloc(417);
  frame.writeUInt32BE(0xfffb9000, 0);
  return Buffer.concat([frame, frame, frame, frame]);
}

export interface FormFile {
  name: string;
  content: Buffer;
  field?: string;
  type?: string;
}

/** A multipart/form-data body, fields first (in the order given), then the files. */
export function multipart(
  fields: Record<string, string>,
  files: FormFile[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(fileHead(boundary, file), file.content, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function fileHead(boundary: string, file: FormFile): Buffer {
  const name = file.name.replace(/"/g, '%22');
  return Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'files'}"; filename="${name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
    'utf8',
  );
}

/**
 * A multipart body with one file of exactly `size` bytes (starting with `head`), generated
 * lazily in 1 MB chunks: a 200 MB upload without 200 MB in memory on the sending side.
 */
export function streamingUpload(
  fields: Record<string, string>,
  file: { name: string; head: Buffer; size: number },
): { body: Readable; headers: Record<string, string>; length: number } {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const prefix = Buffer.concat([
    ...Object.entries(fields).map(([name, value]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    ),
    fileHead(boundary, { name: file.name, content: Buffer.alloc(0) }),
  ]);
  const suffix = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(1024 * 1024, 0x2e);
  function* generate() {
    yield prefix;
    yield file.head;
    let left = file.size - file.head.length;
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      yield n === chunk.length ? chunk : chunk.subarray(0, n);
      left -= n;
    }
    yield suffix;
  }
  return {
    body: Readable.from(generate(), { objectMode: false }),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    length: prefix.length + file.size + suffix.length,
  };
}
