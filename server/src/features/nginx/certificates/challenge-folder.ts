import { chmod, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileDurably } from '../../../lib/durable-file';

/**
 * The HTTP-01 challenge files nginx serves at /.well-known/acme-challenge/<token>. Public by
 * nature: the certificate authority reads them over plain HTTP, so nginx's workers may too.
 */
export class ChallengeFolder {
  constructor(private readonly dir: string) {}

  async put(token: string, keyAuthorization: string): Promise<void> {
    // The token comes from the authority: base64url only, so it cannot name another file.
    if (!/^[A-Za-z0-9_-]{1,256}$/.test(token))
      throw new Error('The certificate authority sent an unusable token');
    await mkdir(this.dir, { recursive: true });
    await chmod(this.dir, 0o755);
    const file = path.join(this.dir, token);
    await writeFileDurably(file, keyAuthorization);
    await chmod(file, 0o644);
  }

  async remove(token: string): Promise<void> {
    if (/^[A-Za-z0-9_-]{1,256}$/.test(token)) await rm(path.join(this.dir, token), { force: true });
  }
}
