// Servers a benchmark starts in their own processes: started, awaited, and stopped by their PID.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'svc.cjs');
const READY = /(?:svc|bare) listening on (http:\/\/127\.0\.0\.1:\d+)/;

/** Builds the CLI (dist/svc.cjs) when it is missing. */
export function ensureBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'svc.cjs'))) {
    spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
}

const live = new Set<ChildProcess>();
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
process.on('exit', () => {
  for (const child of live) {
    if (child.pid !== undefined && running(child)) {
      process.kill(child.pid, 'SIGKILL');
    }
  }
});

/** A server we started, in its own process. */
export interface Started {
  url: string;
  child: ChildProcess;
  pid: number;
  /** Its exit code, once it has exited. */
  exited: Promise<number | null>;
  /** SIGTERM by its PID; resolved once it has exited. */
  stop: () => Promise<void>;
  /** SIGKILL by its PID unless it has exited already; resolved once it has. */
  kill: () => Promise<void>;
}

/**
 * Starts a server and waits for its ready line. What it prints before is kept for the error
 * when it never gets there; after, its standard error goes to ours and the rest is let go.
 */
export function start(
  args: string[],
  readyWithinMs = 120_000,
  opts: { cpu?: string | undefined } = {},
): Promise<Started> {
  // taskset execs node, so the pid is the server's own.
  const child =
    opts.cpu === undefined
      ? spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('taskset', ['-c', opts.cpu, process.execPath, ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
  live.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      live.delete(child);
      resolve(code);
    }),
  );
  const signal = async (name: NodeJS.Signals) => {
    if (child.pid !== undefined && running(child)) {
      process.kill(child.pid, name);
    }
    await exited;
  };
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), readyWithinMs);
    child.stderr?.on('data', keep);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk;
      const ready = READY.exec(out);
      if (ready?.[1] && child.pid !== undefined) {
        clearTimeout(timer);
        out = '';
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        child.stderr?.off('data', keep);
        child.stderr?.pipe(process.stderr);
        resolve({
          url: ready[1],
          child,
          pid: child.pid,
          exited,
          stop: () => signal('SIGTERM'),
          kill: () => signal('SIGKILL'),
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${String(code)} before its ready line: ${out}`));
    });
  });
}

/**
 * `svc serve` on schema `schema` of the PostgreSQL store at `url`, empty when new, no rate limit;
 * its node data (request log, uploads) in `dir`.
 */
export function serveStore(url: string, schema: string, dir: string): Promise<Started> {
  return start([
    BIN,
    'serve',
    '--store',
    url,
    '--store-schema',
    schema,
    '--data',
    join(dir, `${schema}.json`),
    '--port',
    '0',
    '--rate-limit',
    'off',
    '--no-seed',
  ]);
}
