import {
  closeSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { StoreFileError } from './types';

// One server per data file: two writers appending to one journal would corrupt it. The lock
// holds the pid, and after it a line of what the holder last knew of the data file (data-file.ts,
// FileIdentity): a svc that was killed leaves it for the next start.

export interface Lock {
  release(): void;
  /** The line a svc that is gone left after its pid; undefined when there was none. */
  left: string | undefined;
}

export function acquireLock(dataPath: string): Lock {
  const lockPath = `${dataPath}.lock`;
  let left: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => rmSync(lockPath, { force: true }), left };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new StoreFileError(`cannot lock data file ${dataPath}: ${(err as Error).message}`);
      }
      const text = readFileSync(lockPath, 'utf8');
      const holder = Number.parseInt(text, 10);
      if (holder !== process.pid && isAlive(holder)) {
        throw new StoreFileError(`data file ${dataPath} is in use by another svc (pid ${holder})`);
      }
      const newline = text.indexOf('\n');
      left = newline < 0 ? undefined : text.slice(newline + 1);
      rmSync(lockPath, { force: true }); // left by a process that is gone
    }
  }
  throw new StoreFileError(`cannot lock data file ${dataPath}`);
}

/**
 * Writes `line` after the pid in the lock this process holds. Through a rename, so that another
 * svc reading the lock never finds it empty (it would take a lock without a pid for a stale one).
 */
export function noteInLock(dataPath: string, line: string): void {
  const lockPath = `${dataPath}.lock`;
  const temp = `${lockPath}.${process.pid}.tmp`;
  writeFileSync(temp, `${process.pid}\n${line}`);
  renameSync(temp, lockPath);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) {
    return false;
  }
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !exited(pid);
}

/**
 * Whether a process that signals still answer has in fact exited, waiting to be reaped (Linux:
 * its state in /proc is Z or X). A killed svc stays so until its parent reaps it, seconds under a
 * slow init, and holds no file meanwhile (found by an integrator's probe). False where /proc does
 * not say.
 */
function exited(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // `pid (command) state …`: the command may hold parentheses, so the state follows the last.
    const state = stat[stat.lastIndexOf(')') + 2];
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}
