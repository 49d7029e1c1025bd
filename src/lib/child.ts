import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Running } from './running';

// svc as a child process, as `npx svc serve` runs it: started on the ready file (--ready-file),
// stopped with SIGTERM (every write on disk first), and never left behind by its parent.

export interface ChildOptions {
  data: string;
  store: { url: string; schema: string } | undefined;
  /** The temporary folder made for it: removed by the child once stopped, if its parent is gone. */
  tempDir: string;
  readyFile: string;
  port: number;
  rateLimit: number | 'off';
  allowLocalTargets: boolean;
}

const READY_WITHIN_MS = 30_000;
const STOP_WITHIN_MS = 10_000;
/** What of svc's stderr a failed start shows. */
const KEPT_STDERR = 4096;

/** bin/svc.cjs of this package: beside dist/, where the built library lies. */
function svcBin(): string {
  if (typeof SVC_DIST !== 'string') {
    throw new Error('svc is not built: run `npm run build` first');
  }
  return join(SVC_DIST, '..', 'bin', 'svc.cjs');
}

export async function startChild(opts: ChildOptions): Promise<Running> {
  const args = [
    svcBin(),
    'serve',
    '--port',
    String(opts.port),
    '--data',
    opts.data,
    ...(opts.store ? ['--store', opts.store.url, '--store-schema', opts.store.schema] : []),
    '--no-seed',
    '--ready-file',
    opts.readyFile,
    '--rate-limit',
    String(opts.rateLimit),
    ...(opts.allowLocalTargets ? ['--allow-local-targets'] : []),
  ];
  // An admin token in the caller's environment would lock the control API the library calls.
  // stdin is a pipe from this process, never written: when this process ends, however it ends
  // (a signal, a crash, process.exit), the pipe closes and svc stops, removing its folder.
  const child = spawn(process.execPath, args, {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: {
      ...process.env,
      SVC_ADMIN_TOKEN: '',
      SVC_STORE: '', // nor a store in it take the place of the data file asked for
      SVC_STOP_WITH_PARENT: '1',
      SVC_REMOVE_ON_STOP: opts.tempDir,
    },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-KEPT_STDERR);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  // The pipe must not keep this process alive, nor its end throw here.
  child.stdin?.on('error', () => {});
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  child.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();

  const deadline = Date.now() + READY_WITHIN_MS;
  let ready: { app_url: string; pid: number } | undefined;
  while (ready === undefined) {
    if (gone || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `svc did not start${gone ? ` (exit ${child.exitCode})` : ` within ${READY_WITHIN_MS / 1000} s`}: ${stderr.trim()}`,
      );
    }
    ready = await readReady(opts.readyFile);
    if (ready === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const stop = async () => {
    if (gone) {
      return;
    }
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_WITHIN_MS);
    await exited;
    clearTimeout(timer);
  };
  return { appUrl: ready.app_url, pid: ready.pid, stop };
}

async function readReady(file: string): Promise<{ app_url: string; pid: number } | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as { app_url: string; pid: number };
  } catch {
    return undefined; // not there yet (svc writes it whole, by a rename)
  }
}
