import { MAX_UPLOAD_BYTES } from '@common/constants';
import { describe, expect, it } from 'vitest';
import { formatSize } from '../../lib/format-size';
import { messageTone } from './message-tone';
import { acceptFor, checkSelection } from './upload-rules';

/** A File that claims `size` bytes without allocating them. */
function file(name: string, type: string, size = 10): File {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

describe('checkSelection', () => {
  it('accepts files whose MIME type or extension fits the media type', () => {
    const byType = file('no-extension', 'image/png');
    const byExtension = file('photo.JPG', '');
    expect(checkSelection([byType, byExtension], 'image')).toEqual({
      accepted: [byType, byExtension],
      message: null,
    });
    expect(checkSelection([file('film.ogg', ''), file('tune.ogg', '')], 'audio').accepted).toHaveLength(2);
  });

  it('queues the valid files and names the refused ones, as the spec words it', () => {
    const good = file('clip.mp4', 'video/mp4');
    const big = file('huge.mkv', 'video/x-matroska', MAX_UPLOAD_BYTES + 1);
    const limit = file('limit.webm', 'video/webm', MAX_UPLOAD_BYTES);
    const wrong = file('notes.txt', 'text/plain');
    const result = checkSelection([good, big, limit, wrong], 'video');
    expect(result.accepted).toEqual([good, limit]);
    expect(result.message).toBe(
      'Files too large (max 200MB): huge.mkv Invalid file types: notes.txt. Please select valid video files (mp4, webm, ogg, mov, avi, mkv, m4v).',
    );
  });

  it('offers the type’s extensions and MIME family to the file chooser', () => {
    expect(acceptFor('audio')).toBe('.mp3,.wav,.ogg,.m4a,.flac,.aac,.wma,audio/*');
  });
});

describe('messages', () => {
  it('are red when they mention an error or refuse the request, else green', () => {
    expect(messageTone('Upload error: a.png: its content is not an SVG image')).toBe('error');
    expect(messageTone('Delete error: Delete failed')).toBe('error');
    expect(messageTone('Scan Error: nope')).toBe('error');
    expect(messageTone('No files selected.')).toBe('error');
    expect(messageTone('Invalid file types: a.txt. Please select valid image files.')).toBe('error');
    expect(messageTone('Successfully uploaded 2 file(s) to image.')).toBe('success');
    expect(messageTone('Deleted 1 file(s).')).toBe('success');
  });

  it('show sizes in human units', () => {
    expect(formatSize(900)).toBe('900 B');
    expect(formatSize(11_701)).toBe('11 KB');
    expect(formatSize(MAX_UPLOAD_BYTES)).toBe('200 MB');
    expect(formatSize(1536)).toBe('1.5 KB');
  });
});
