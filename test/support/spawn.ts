import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Runs the built CLI (`node bin/svc.cjs ...`) as a real process, as a user or a harness would.
// Every child is tracked until it exits: call `cleanup()` in afterEach so a failing test never
// leaves one behind. Only the PIDs started here are ever signalled.

const root = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(root, 'bin', 'svc.cjs');
const BUNDLE = join(root, 'dist', 'svc.cjs');

const live = new Set<ChildProcess>();
const dirs = new Set<string>();

// A backstop for a worker that exits without running afterEach: never leave a server behind.
process.once('exit', () => {
  for (const child of live) {
    child.kill('SIGKILL');
  }
});

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunResult extends Exit {
  stdout: string;
  stderr: string;
}

export interface SpawnOptions {
  cwd?: string;
  /** Give up (SIGKILL the child, fail) after this long. */
  timeoutMs?: number;
  /** Another copy of bin/svc.cjs to run (one whose dist/ lacks the code cache, say). */
  bin?: string;
  /** Variables set (or, as '', emptied) on top of this process's environment. */
  env?: Record<string, string>;
}

/** A fresh directory under the OS temp dir, removed by cleanup(). */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-test-'));
  dirs.add(dir);
  return dir;
}

/** Kills every child still running (SIGKILL, by its PID) and removes the temp dirs. */
export async function cleanup(): Promise<void> {
  const children = [...live];
  for (const child of children) {
    child.kill('SIGKILL');
  }
  await Promise.all(children.map((child) => exited(child)));
  const paths = [...dirs];
  dirs.clear();
  await Promise.all(paths.map((dir) => rm(dir, { recursive: true, force: true })));
}

function exited(child: ChildProcess): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

function closed(child: ChildProcess): Promise<Exit> {
  if (child.stdout?.closed !== false && child.stderr?.closed !== false) {
    return exited(child);
  }
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
}

/** Starts any node script as a tracked child. */
export function spawnNode(args: string[], opts: SpawnOptions = {}): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: opts.cwd ?? root,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

function spawnSvc(args: string[], opts: SpawnOptions): ChildProcess {
  if (!existsSync(BUNDLE)) {
    throw new Error('dist/svc.cjs is missing: run `npm run build` before the CLI tests');
  }
  return spawnNode([opts.bin ?? BIN, ...args], opts);
}

/** What a child has printed so far, on each stream. */
export function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return { stdout: () => stdout, stderr: () => stderr };
}

/** Runs `svc ...args` to its exit. */
export async function runSvc(args: string[], opts: SpawnOptions = {}): Promise<RunResult> {
  const child = spawnSvc(args, opts);
  const out = collect(child);
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  // 'close', not 'exit': the output pipes are drained by then.
  const exit = await new Promise<Exit>((resolve) =>
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) =>
      resolve({ code, signal }),
    ),
  );
  clearTimeout(timer);
  if (exit.signal === 'SIGKILL') {
    throw new Error(`svc ${args.join(' ')} did not exit within ${timeoutMs} ms: ${out.stderr()}`);
  }
  return { ...exit, stdout: out.stdout(), stderr: out.stderr() };
}

export interface Server {
  /** http://127.0.0.1:PORT as printed on the ready line. */
  url: string;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Signals this child (by its PID) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

const READY = /^svc listening on (http:\/\/127\.0\.0\.1:\d+)$/m;

/**
 * Starts `svc serve --port 0 --data FILE ...extra` (no --data when `data` is undefined) and
 * waits for its ready line.
 */
export async function startServe(
  data: string | undefined,
  extra: string[] = [],
  opts: SpawnOptions = {},
): Promise<Server> {
  const dataArgs = data === undefined ? [] : ['--data', data];
  const child = spawnSvc(['serve', '--port', '0', ...dataArgs, ...extra], opts);
  const out = collect(child);
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const url = await new Promise<string>((resolve, reject) => {
    const fail = (why: string) => {
      cleanupListeners();
      child.kill('SIGKILL');
      reject(new Error(`svc serve ${why}\nstdout: ${out.stdout()}\nstderr: ${out.stderr()}`));
    };
    const timer = setTimeout(() => fail(`printed no ready line within ${timeoutMs} ms`), timeoutMs);
    const onData = () => {
      const match = READY.exec(out.stdout());
      if (match?.[1]) {
        cleanupListeners();
        resolve(match[1]);
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(`exited (code ${code}, signal ${signal}) before it was ready`);
    const cleanupListeners = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
  const pid = child.pid as number;
  return {
    url,
    pid,
    stdout: out.stdout,
    stderr: out.stderr,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      // 'close', not 'exit': what it printed on the way out is in stdout() by then
      const done = closed(child);
      child.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`svc serve (pid ${pid}) did not exit within 10 s of ${signal}`));
        }, 10_000);
      });
      try {
        return await Promise.race([done, deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** What `svc serve` prints about the demo workspace it holds (empty when it holds none). */
export function bannerKeys(stdout: string): { write: string; read: string } | undefined {
  const write = /^ {4}write key {2}(\S+)$/m.exec(stdout)?.[1];
  const read = /^ {4}read key {3}(\S+)$/m.exec(stdout)?.[1];
  return write && read ? { write, read } : undefined;
}

export interface HttpReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: JSON from the server, read field by field
  body: any;
}

/** One request to a spawned server (127.0.0.1 only): JSON in, JSON out. */
export async function http(
  url: string,
  opts: { method?: string; key?: string; body?: unknown } = {},
): Promise<HttpReply> {
  if (!url.startsWith('http://127.0.0.1:')) {
    throw new Error(`tests only talk to 127.0.0.1, not ${url}`);
  }
  const headers: Record<string, string> = {};
  if (opts.key) {
    headers.Authorization = `Bearer ${opts.key}`;
  }
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(url, {
    method: opts.method ?? 'GET',
    headers,
    signal: AbortSignal.timeout(10_000),
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: the test sees the text
  }
  return { status: res.status, headers: res.headers, body };
}
