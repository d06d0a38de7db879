import { describe, it } from 'vitest';

export const isRoot = process.getuid?.() === 0;

/**
 * A describe block for drills that need root (mounting a small tmpfs, remounting it read-only).
 * Without root it is skipped with a message saying why, except on CI (CI=true), where a skipped
 * drill would hide a broken promise: there it fails.
 */
export function describeAsRoot(name: string, body: () => void): void {
  if (isRoot) {
    describe(name, body);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs root (it mounts a file system); CI must run the tests as root', () => {
        throw new Error(`${name}: this drill needs root and CI=true forbids skipping it.`);
      });
    });
    return;
  }
  describe.skip(`${name} (skipped: needs root to mount a file system)`, body);
}
