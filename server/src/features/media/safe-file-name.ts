import { randomBytes } from 'node:crypto';
import { link, open, rename } from 'node:fs/promises';
import path from 'node:path';

const MAX_BASE_LENGTH = 80;
const MAX_NUMBERED_ATTEMPTS = 1000;

/** The file name part of what a browser sent, without any folders (either slash). */
function lastSegment(clientName: string): string {
  return clientName.split(/[/\\]/).pop() ?? '';
}

/** The lower-cased extension of the client's file name, without the dot ('' when none). */
export function extensionOf(clientName: string): string {
  const name = lastSegment(clientName);
  const dot = name.lastIndexOf('.');
  // '.png' counts as a PNG without a name, as people who upload it mean.
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * A stored name's stem made by the server from the client's name: accents folded, anything but
 * letters, digits, '-' and '_' turned into '-', never empty, never longer than 80 characters.
 * Nothing the client sends can become a folder, a dot-file or a control character on disk.
 */
export function safeStem(clientName: string): string {
  const name = lastSegment(clientName);
  const dot = name.lastIndexOf('.');
  const stem = dot >= 0 ? name.slice(0, dot) : name;
  const slug = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, MAX_BASE_LENGTH)
    .replace(/[-_]+$/, '');
  return slug || 'file';
}

/** The client's name as it may appear in a message: no folders, no control characters, bounded. */
export function displayName(clientName: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const name = lastSegment(clientName ?? '').replace(/[\x00-\x1f\x7f]/g, '');
  return name.slice(0, 200) || '(unnamed file)';
}

/**
 * Gives the finished temporary file its final name in `folder` without ever replacing an
 * existing file: `stem.ext`, else `stem-1.ext`, `stem-2.ext`... Each try is an exclusive create
 * (a hard link fails when the name exists), so two uploads racing for one name both survive.
 * Returns the name used; the caller removes the temporary file.
 */
export async function placeExclusively(
  tempPath: string,
  folder: string,
  stem: string,
  extension: string,
): Promise<string> {
  for (let attempt = 0; attempt <= MAX_NUMBERED_ATTEMPTS; attempt++) {
    const suffix =
      attempt === 0
        ? ''
        : attempt < MAX_NUMBERED_ATTEMPTS
          ? `-${attempt}`
          : `-${randomBytes(6).toString('hex')}`;
    const name = `${stem}${suffix}.${extension}`;
    if (await claim(tempPath, path.join(folder, name))) return name;
  }
  throw new Error(`No free name for ${stem}.${extension}`);
}

async function claim(tempPath: string, target: string): Promise<boolean> {
  try {
    await link(tempPath, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
  }
  // Filesystems without hard links: reserve the name with an exclusive create, then move onto it.
  try {
    await (await open(target, 'wx')).close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  await rename(tempPath, target);
  return true;
}
