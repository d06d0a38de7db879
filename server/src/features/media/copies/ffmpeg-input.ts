/**
 * ffmpeg's demuxer for each video container file-type recognises by its bytes. ffmpeg picks its
 * demuxer by probing the content, and some of its demuxers open other files or addresses (an HLS
 * playlist, a concat list): a text file named `.mp4` would make it read what the text names. So
 * the input's format is always forced to what the bytes are, and only these may be read.
 */
const DEMUXERS: Record<string, string> = {
  mp4: 'mov',
  m4v: 'mov',
  mov: 'mov',
  '3gp': 'mov',
  '3g2': 'mov',
  f4v: 'mov',
  webm: 'matroska',
  mkv: 'matroska',
  avi: 'avi',
  ogv: 'ogg',
  ogg: 'ogg',
  ogx: 'ogg',
  mpg: 'mpeg',
  mts: 'mpegts',
  flv: 'flv',
  asf: 'asf',
};

/**
 * The arguments that open `file` as ffmpeg's (or ffprobe's) input: the file protocol alone
 * (`-protocol_whitelist file,pipe`, and the path given as `file:` so that no `proto:` prefix of a
 * name is read as one), and the demuxer of what the file's bytes are. Null when the bytes are
 * not a video container: such a file is not handed to ffmpeg at all.
 */
export async function videoInputArgs(file: string): Promise<string[] | null> {
  // Loaded with the first video, not at start (as for uploads: media-content.ts).
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(file).catch(() => undefined);
  const demuxer = detected ? DEMUXERS[detected.ext] : undefined;
  if (!demuxer) return null;
  return ['-protocol_whitelist', 'file,pipe', '-f', demuxer, '-i', `file:${file}`];
}
