import { constants, existsSync, statSync } from 'node:fs';
import { access, mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

// A report file a command writes at its end (--junit of `svc scenario run` and `svc replay`),
// checked before anything runs: a report that cannot be written is bad usage, not a lost run.

export type Prepared = { ok: true; undo: () => Promise<void> } | { ok: false; problem: string };

/**
 * Makes the file's missing folders one level at a time from the nearest existing ancestor (Node
 * 20's mkdir recursive spins forever under /proc), then opens the file for writing. `undo`
 * removes what this made (the file, when it was not there, and the folders), for a run that
 * ends before its report: no 0-byte file is left behind.
 */
export async function prepareReportFile(file: string): Promise<Prepared> {
  const missing: string[] = [];
  let dir = dirname(resolve(file));
  while (!existsSync(dir)) {
    missing.unshift(dir);
    const up = dirname(dir);
    if (up === dir) {
      break;
    }
    dir = up;
  }
  const existed = existsSync(file);
  try {
    if (!statSync(dir).isDirectory()) {
      return { ok: false, problem: `${dir} is not a folder` };
    }
    await access(dir, constants.W_OK);
    for (const folder of missing) {
      await mkdir(folder);
    }
    await writeFile(file, '', { flag: 'a' });
  } catch (err) {
    return { ok: false, problem: (err as Error).message };
  }
  return {
    ok: true,
    async undo() {
      if (!existed) {
        await rm(file, { force: true }).catch(() => undefined);
      }
      for (const folder of [...missing].reverse()) {
        await rmdir(folder).catch(() => undefined);
      }
    },
  };
}

/** The one line both commands print for it (after `error: `). */
export function reportFileProblem(flag: string, file: string, problem: string): string {
  return `cannot write ${flag} ${file}: ${problem}`;
}
