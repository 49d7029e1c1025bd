// Time from spawning `svc serve` on a ~25 MB data file to its first answered request, against a
// bare Node process that only reads and parses the same file and answers over node:http: the
// floor any JSON-file server pays. Starts alternate, so machine noise hits both alike.
// Run: npm run bench:startup (builds dist/ first when it is missing)
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'svc.cjs');
const RUNS = 5;
const TARGET_RATIO = 1.2;
/** A start that takes longer than this has failed; the bench must stay bounded. */
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const RATE_LIMIT = 'off';
/** A request that reads the big workspace, so its answer waits for the workspace to be parsed. */
const JOBS_PATH = '/v1/jobs?limit=50';
const READY = /^(?:svc|bare) listening on (http:\/\/127\.0\.0\.1:\d+)$/m;

// The floor: read, parse, listen, answer. `process.argv[1]` is the data file.
const BARE_SCRIPT = `
const data = JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'));
const server = require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"ok":true}');
});
server.listen(0, '127.0.0.1', () => {
  globalThis.data = data;
  console.log('bare listening on http://127.0.0.1:' + server.address().port);
});`;

/** Children still running: killed by PID if the bench itself stops early. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) {
    kill(child, 'SIGKILL');
  }
});

/** Signals one child we started, by its PID, unless it has already exited. */
function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    process.kill(child.pid, signal);
  }
}

interface Sample {
  readyMs: number;
  answeredMs: number;
}

function ensureBuilt(): void {
  if (existsSync(join(ROOT, 'dist', 'svc.cjs'))) {
    return;
  }
  console.log('dist/svc.cjs is missing: running npm run build');
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) {
    throw new Error('npm run build failed');
  }
}

/** The write key `svc seed --json` printed; keys derive from the seed, so they stay valid. */
function writeKeyOf(json: string): { workspaceId: string; key: string } {
  const parsed = JSON.parse(json) as {
    workspaces?: { id?: unknown; keys?: { write?: { key?: unknown } } }[];
  };
  const ws = parsed.workspaces?.[0];
  const key = ws?.keys?.write?.key;
  if (typeof ws?.id !== 'string' || typeof key !== 'string') {
    throw new Error(`unexpected svc seed --json output: ${json}`);
  }
  return { workspaceId: ws.id, key };
}

/** `svc seed --profile large`: one workspace of 10,000 jobs with their contacts, tasks, notes. */
function buildDataFile(path: string): string {
  const seeded = spawnSync(
    process.execPath,
    [BIN, 'seed', '--data', path, '--profile', 'large', '--seed', '1', '--json'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (seeded.status !== 0) {
    throw new Error(`svc seed failed: ${seeded.stderr}`);
  }
  return writeKeyOf(seeded.stdout).key;
}

function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    // agent: false: a fresh connection, as a first client would open; nothing kept alive.
    const req = request(url, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves with the base URL the child prints once it listens. */
function waitReady(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error('start timed out')), START_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = READY.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${String(code)}) before listening: ${err}`));
    });
  });
}

/** SIGTERM by PID and wait for the exit (svc writes its final snapshot then); SIGKILL if stuck. */
async function stop(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (child.exitCode === null && child.signalCode === null && pid !== undefined) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(pid, 'SIGTERM');
    const timer = setTimeout(() => kill(child, 'SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
  live.delete(child);
}

/** Spawns `args`, waits for its ready line, then times one GET of `path`. */
async function timeStart(args: string[], path: string, key?: string): Promise<Sample> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  try {
    const base = await waitReady(child);
    const readyMs = performance.now() - started;
    const status = await get(`${base}${path}`, key ? { authorization: `Bearer ${key}` } : {});
    const answeredMs = performance.now() - started;
    if (status !== 200) {
      throw new Error(`GET ${path} answered ${status}`);
    }
    return { readyMs, answeredMs };
  } finally {
    await stop(child);
  }
}

/**
 * One svc start on the same file bare reads: a clean shutdown that wrote nothing leaves the data
 * file as it was, so only svc's side files (journal, request log, lock) are cleared between runs.
 * (A fresh copy a start would make svc read dirty pages while the kernel writes them back.)
 */
async function svcStart(data: string, key: string, path = '/v1/ping'): Promise<Sample> {
  const before = await stat(data);
  let sample: Sample;
  try {
    const args = [BIN, 'serve', '--data', data, '--port', '0', '--rate-limit', RATE_LIMIT];
    sample = await timeStart(args, path, key);
  } finally {
    for (const suffix of ['.journal', '.requests.jsonl', '.lock']) {
      await rm(`${data}${suffix}`, { force: true });
    }
  }
  if ((await stat(data)).mtimeMs !== before.mtimeMs) {
    throw new Error('svc rewrote the data file on a shutdown that wrote nothing');
  }
  return sample;
}

const bareStart = (pristine: string) => timeStart(['-e', BARE_SCRIPT, pristine], '/');

function stats(values: number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[mid] ?? Number.NaN)
      : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
  return { median, min: sorted[0] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN };
}

function printRow(label: string, samples: Sample[]): number {
  const answered = stats(samples.map((s) => s.answeredMs));
  const ready = stats(samples.map((s) => s.readyMs));
  const ms = (v: number) => v.toFixed(0).padStart(7);
  console.log(
    `${label.padEnd(6)}${ms(answered.median)}${ms(answered.min)}${ms(answered.max)}` +
      `${ms(ready.median)}   ${samples.map((s) => s.answeredMs.toFixed(0)).join(', ')}`,
  );
  return answered.median;
}

async function main(): Promise<void> {
  ensureBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-startup-'));
  try {
    const pristine = join(dir, 'pristine.json');
    const key = buildDataFile(pristine);
    const { size } = await stat(pristine);
    console.log(
      `startup: data file ${(size / 1e6).toFixed(1)} MB (${size.toLocaleString('en-US')} bytes, ` +
        `svc seed --profile large: 10,000 jobs with their contacts, tasks and notes); ${RUNS} starts each, ` +
        'alternating, after one untimed warm-up start each\n',
    );
    // Warm-up: the page cache holds the file and V8's code cache is fresh before anything counts.
    await svcStart(pristine, key);
    await bareStart(pristine);
    const svc: Sample[] = [];
    const jobs: Sample[] = [];
    const bare: Sample[] = [];
    for (let n = 1; n <= RUNS; n++) {
      // Swap the order every other round, so neither always runs right after the other.
      const first = n % 2 === 1;
      if (!first) {
        bare.push(await bareStart(pristine));
      }
      svc.push(await svcStart(pristine, key));
      jobs.push(await svcStart(pristine, key, JOBS_PATH));
      if (first) {
        bare.push(await bareStart(pristine));
      }
    }
    console.log('       spawn -> 200 (ms)       ready');
    console.log('        median    min    max  median   all runs');
    const svcMs = printRow('svc', svc);
    const jobsMs = printRow('jobs', jobs);
    const bareMs = printRow('bare', bare);
    const ratio = svcMs / bareMs;
    const verdict = ratio <= TARGET_RATIO ? 'PASS' : 'FAIL';
    console.log(`\nratio svc / bare = ${ratio.toFixed(2)} (target <= ${TARGET_RATIO}): ${verdict}`);
    // Not a target: what the workspace parsed on first use costs the first request that reads it.
    console.log(
      `first ${JOBS_PATH}, the workspace parsed on first use: ${(jobsMs / bareMs).toFixed(2)} x bare`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
