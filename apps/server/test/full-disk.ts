/** A disk that fills up, for real: a small tmpfs (mounted here, as root) and a file that fills it. */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A tmpfs of `size` mounted on a fresh directory (root only); `defer` gets its unmount. */
export function mountTmpfs(size: string, defer: (step: () => void) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'bagh-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  } catch (error) {
    throw new Error(`this test mounts a tmpfs and must run as root: ${String(error)}`);
  }
  defer(() => {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Writes zeros to `file` until the disk is full; returns a function that frees the space again. */
export function fillDisk(file: string): () => void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(4096);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return () => unlinkSync(file);
}
