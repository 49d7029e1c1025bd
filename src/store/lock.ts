import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { StoreFileError } from './types';

// One server per data file: two writers appending to one journal would corrupt it.
export function acquireLock(dataPath: string): () => void {
  const lockPath = `${dataPath}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new StoreFileError(`cannot lock data file ${dataPath}: ${(err as Error).message}`);
      }
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (holder !== process.pid && isAlive(holder)) {
        throw new StoreFileError(`data file ${dataPath} is in use by another svc (pid ${holder})`);
      }
      rmSync(lockPath, { force: true }); // left by a process that is gone
    }
  }
  throw new StoreFileError(`cannot lock data file ${dataPath}`);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) {
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
