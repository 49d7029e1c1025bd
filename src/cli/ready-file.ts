import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { SeededWorkspace } from '../seed';

// `svc serve --ready-file FILE` (DESIGN.md, Shared servers, stores and tests): where svc is and
// the keys of the workspaces the banner shows, for a harness in any language that starts svc as a
// process and must not parse the banner. decisions.md, Command line: the file is removed when svc
// starts (a stale one would point at a server that is gone) and when it stops cleanly.

export interface ReadyInfo {
  base_url: string;
  app_url: string;
  pid: number;
  /** As `svc seed --json` prints them. */
  workspaces: SeededWorkspace[];
}

/** Removes what an earlier start left, so a harness never reads it for this one. */
export function clearReadyFile(file: string): void {
  rmSync(file, { force: true });
}

/** Writes `info` whole: a reader sees no file, or all of it (a rename, never a partial write). */
export function writeReadyFile(file: string, info: ReadyInfo): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(temp, `${JSON.stringify(info, null, 2)}\n`);
  renameSync(temp, file);
}
