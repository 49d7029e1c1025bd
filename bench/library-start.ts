// How long `startSvc()` (the package's library, dist/lib.cjs) takes to answer a ready svc with
// its workspace, as a child process and in-process, against `svc serve` alone reaching its ready
// file: what a test suite's setup pays. Starts alternate, so machine noise hits each alike.
// Run: npm run bench:library (after npm run build)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = 7;
const READY_TIMEOUT_MS = 30_000;

const lib = createRequire(import.meta.url)(
  join(ROOT, 'dist', 'lib.cjs'),
) as typeof import('../src/lib');

/** `svc serve --port 0 --ready-file` alone: spawn to the ready file, then SIGTERM and wait. */
async function serveAlone(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-'));
  const ready = join(dir, 'ready.json');
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'svc.cjs'),
      'serve',
      '--port',
      '0',
      '--no-seed',
      '--data',
      join(dir, 'd.json'),
      '--ready-file',
      ready,
    ],
    { stdio: 'ignore' },
  );
  while (!existsSync(ready)) {
    if (performance.now() - start > READY_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error('svc serve did not start');
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const ms = performance.now() - start;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  await rm(dir, { recursive: true, force: true });
  return ms;
}

async function library(inProcess: boolean): Promise<number> {
  const start = performance.now();
  const svc = await lib.startSvc({ inProcess });
  const ms = performance.now() - start;
  await svc.stop();
  return ms;
}

const kinds = {
  'svc serve to its ready file': () => serveAlone(),
  'startSvc() (child process)': () => library(false),
  'startSvc({inProcess: true})': () => library(true),
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
for (let i = 0; i < RUNS; i++) {
  for (const [name, run] of Object.entries(kinds)) {
    times[name]?.push(await run());
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const base = median(times['svc serve to its ready file'] ?? []);
console.log(`startSvc, ${RUNS} starts each, alternating (the first in-process start loads svc)`);
for (const [name, xs] of Object.entries(times)) {
  const rest = name.includes('inProcess') ? xs.slice(1) : xs;
  console.log(
    `  ${name.padEnd(30)} p50 ${median(rest).toFixed(0).padStart(5)} ms  (${(median(rest) / base).toFixed(2)}x serve alone)` +
      (name.includes('inProcess') ? `, first ${xs[0]?.toFixed(0)} ms` : ''),
  );
}
process.exit(0); // the in-process servers' timers are this process's
