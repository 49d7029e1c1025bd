// The request log's export and svc replay, measured (issue 18). A svc with a full log (20,000
// entries whose answers are what the log keeps of a page of jobs: 4 KB since issue 21) answers
// `GET /__admin/requests?format=jsonl`: the time it takes, and how much the server's peak memory
// (VmRSS, sampled) grew while it did, against paging the same log with `?limit=200`. Then `svc replay`
// sends a recorded session of writes to a second svc: requests a second. Prints its figures; the
// target is that the export costs the server less than 64 MB more memory than it had.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BIN, ensureBuilt } from './server-process';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 20_000);
const REPLAYED = Number(process.env.BENCH_REPLAYED ?? 2_000);

interface Running {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** `svc serve` in a process of our own: its PID is needed to read its memory. */
function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = () =>
    new Promise<void>((done) => {
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk;
      const ready = /svc listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (ready?.[1] && child.pid !== undefined) {
        resolve({ url: ready[1], pid: child.pid, stop });
      }
    });
    child.once('exit', (code) => reject(new Error(`svc serve exited ${code}: ${out}`)));
  });
}

/** The resident memory of a process we started, from /proc (Linux). */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** How far above its resident memory at the start `pid` went while `work` ran (sampled). */
async function growthMb(pid: number, work: () => Promise<void>): Promise<number> {
  const before = await rssMb(pid);
  let most = before;
  const timer = setInterval(() => {
    rssMb(pid).then(
      (mb) => {
        most = Math.max(most, mb);
      },
      () => {},
    );
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(most, await rssMb(pid)) - before;
}

async function json(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  return (await res.json()) as Record<string, never>;
}

async function main(): Promise<void> {
  ensureBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-replay-'));
  try {
    spawnSync(process.execPath, [BIN, 'seed', '--data', join(dir, 'a.json'), '--profile', 'demo'], {
      stdio: 'ignore',
    });
    const a = await start([
      BIN,
      'serve',
      '--port',
      '0',
      '--data',
      join(dir, 'a.json'),
      '--rate-limit',
      'off',
    ]);
    const b = await start([
      BIN,
      'serve',
      '--port',
      '0',
      '--data',
      join(dir, 'b.json'),
      '--no-seed',
      '--rate-limit',
      'off',
    ]);
    try {
      const [ws] = (await json(`${a.url}/__admin/workspaces`)).data as unknown as { id: string }[];
      const made = (await json(`${a.url}/__admin/workspaces/${ws?.id}/keys`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ access: 'write' }),
      })) as unknown as { key: string };
      const filled = await autocannon({
        url: `${a.url}/v1/jobs?limit=50`,
        headers: { Authorization: `Bearer ${made.key}` },
        connections: 8,
        amount: ENTRIES,
      });
      console.log(
        `log filled: ${filled.requests.sent} reads of a page of 50 jobs (each kept as 4 KB, within the log's 64 MB)`,
      );
      await exportFigures(a);
      await replayFigures(a, b, dir);
    } finally {
      await a.stop();
      await b.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function exportFigures(a: { url: string; pid: number }): Promise<void> {
  let started = performance.now();
  let bytes = 0;
  let lines = 0;
  const exportGrowth = await growthMb(a.pid, async () => {
    const res = await fetch(`${a.url}/__admin/requests?format=jsonl`);
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) {
        lines += byte === 10 ? 1 : 0;
      }
    }
  });
  const exportMs = performance.now() - started;
  console.log(
    `export (jsonl): ${lines} entries, ${(bytes / 2 ** 20).toFixed(0)} MB in ${exportMs.toFixed(0)} ms; ` +
      `server memory +${exportGrowth.toFixed(1)} MB at most`,
  );
  started = performance.now();
  let pages = 0;
  const pagingGrowth = await growthMb(a.pid, async () => {
    let cursor: string | null = null;
    do {
      const page = (await json(
        `${a.url}/__admin/requests?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      )) as unknown as { next_cursor: string | null };
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null);
  });
  console.log(
    `paging (json, limit 200): ${pages} pages in ${(performance.now() - started).toFixed(0)} ms; ` +
      `server memory +${pagingGrowth.toFixed(1)} MB at most`,
  );
  console.log(
    `${exportGrowth < 64 ? 'PASS' : 'FAIL'} the export of ${(bytes / 2 ** 20).toFixed(0)} MB grows the server's memory by under 64 MB`,
  );
}

async function replayFigures(a: { url: string }, b: { url: string }, dir: string): Promise<void> {
  const ws = (await json(`${a.url}/__admin/workspaces`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ profile: 'empty' }),
  })) as unknown as { id: string; keys: { write: { key: string } } };
  const key = ws.keys.write.key;
  for (let i = 0; i < REPLAYED / 2; i++) {
    const res = await fetch(`${a.url}/v1/contacts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ first_name: `C${i}` }),
    });
    const { id } = (await res.json()) as { id: string };
    await fetch(`${a.url}/v1/contacts/${id}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ last_name: 'L' }),
    });
  }
  const file = join(dir, 'session.jsonl');
  const exported = await fetch(`${a.url}/__admin/requests?format=jsonl&workspace_id=${ws.id}`);
  await writeFile(file, await exported.text());
  const target = (await json(`${b.url}/__admin/workspaces`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ profile: 'empty' }),
  })) as unknown as { keys: { write: { key: string } } };
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      BIN,
      'replay',
      '--from',
      file,
      '--to',
      b.url,
      '--key',
      target.keys.write.key,
      '--compare',
      '--json',
    ],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(run.stdout) as { same: number; different: number };
  console.log(
    `replay --compare: ${REPLAYED} writes (create, update) in ${seconds.toFixed(2)} s, ` +
      `${(REPLAYED / seconds).toFixed(0)} requests/s; ${report.same} same, ${report.different} different (exit ${run.status})`,
  );
}

await main();
