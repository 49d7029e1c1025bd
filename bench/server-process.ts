// Servers a benchmark starts in their own processes: started, awaited, and stopped by their PID.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'svc.cjs');
const READY = /(?:svc|bare) listening on (http:\/\/127\.0\.0\.1:\d+)/;

/** Builds the CLI bundle when it is missing. */
export function ensureBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'svc.cjs'))) {
    spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) {
    if (child.pid !== undefined && child.exitCode === null) {
      process.kill(child.pid, 'SIGKILL');
    }
  }
});

/** Starts a server we own and waits for its ready line; stop() signals it by PID. */
export function start(args: string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk;
      const ready = READY.exec(out);
      if (ready?.[1]) {
        clearTimeout(timer);
        resolve({
          url: ready[1],
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => {
                live.delete(child);
                done();
              });
              if (child.pid !== undefined) {
                process.kill(child.pid, 'SIGTERM');
              }
            }),
        });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk;
    });
    child.once('exit', (code) => reject(new Error(`exited ${String(code)}: ${out}`)));
  });
}
