// Jobs over HTTP, the way a client meets them. Reads: svc's whole /v1 stack (credential, plan,
// rate limit, request log, idempotency, validation, presentation) against a bare Hono server
// answering the same stored records (bench/bare-jobs-server.mjs), both on a data file holding
// 10,000 jobs, in one run, rounds alternating. Writes: POST /v1/jobs, each answered once fsynced,
// on a store of 1,000 and one of 50,000 jobs, each holding what that many jobs bring (contacts,
// tasks, notes, timeline), warmed up, rounds alternating, each run on a fresh copy of its file.
// A figure with any failed request (error, time-out or non-2xx answer) is a FAIL, counts shown.
// Load comes from autocannon in this process; the servers run in their own processes.
// Run: npm run bench:jobs. A quick smoke run: BENCH_SECONDS=1 BENCH_WRITE_JOBS=1000,12000.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Store } from '../src/store';
import { resizeJobs } from './job-records';
import { BIN, ensureBuilt, ROOT, start } from './server-process';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WRITE_JOBS = (process.env.BENCH_WRITE_JOBS ?? '1000,50000').split(',').map(Number) as [
  number,
  number,
];
const ROUNDS = 2;
const CONNECTIONS = 16;

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
  /** Connection errors (time-outs included) and answers that were not 2xx. */
  errors: number;
  non2xx: number;
}

async function load(url: string, opts: Partial<autocannon.Options>): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...opts });
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

const failed = (f: Figures) => f.errors + f.non2xx > 0;
const fmt = (f: Figures) =>
  `${Math.round(f.perSecond).toLocaleString('en-US').padStart(7)} req/s  p50 ${f.p50.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms${failed(f) ? `  (${f.errors} errors, ${f.non2xx} non-2xx)` : ''}`;
const median = (list: Figures[]) =>
  [...list].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(list.length / 2)] as Figures;

/** PASS only when the ratio meets its goal and no request of any run failed. */
function verdict(ratio: number, goal: number, runs: Figures[]): string {
  const errors = runs.reduce((n, f) => n + f.errors, 0);
  const non2xx = runs.reduce((n, f) => n + f.non2xx, 0);
  if (errors + non2xx > 0) {
    return `FAIL (${errors} errors, ${non2xx} non-2xx answers)`;
  }
  return ratio >= goal ? 'PASS' : 'FAIL';
}

function seed(file: string): { workspaceId: string; key: string } {
  const out = spawnSync(
    process.execPath,
    [BIN, 'seed', '--data', file, '--profile', 'large', '--seed', '1', '--json'],
    { encoding: 'utf8' },
  );
  const parsed = JSON.parse(out.stdout) as {
    workspaces: { id: string; keys: { write: { key: string } } }[];
  };
  const ws = parsed.workspaces[0];
  if (!ws) {
    throw new Error(`svc seed failed: ${out.stderr}`);
  }
  return { workspaceId: ws.id, key: ws.keys.write.key };
}

/** A request that names one of the jobs, in turn. */
function rotating(paths: string[]): autocannon.Request[] {
  let i = 0;
  return [
    {
      method: 'GET',
      setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] as string }),
    },
  ];
}

async function reads(dir: string, seeded: string, workspaceId: string, key: string) {
  const data = join(dir, 'large.json');
  await copyFile(seeded, data);
  const store = await Store.open(data);
  const ids = [...store.store.workspace(workspaceId).values('jobs')].map((j) => j.id);
  await store.store.close();
  console.log(
    `reads over HTTP: ${ids.length.toLocaleString('en-US')} jobs; ${CONNECTIONS} connections, ${SECONDS} s a run, ${ROUNDS} rounds alternating\n`,
  );
  const svc = await start([
    BIN,
    'serve',
    '--data',
    data,
    '--port',
    '0',
    '--rate-limit',
    '1000000000',
  ]);
  const bare = await start([join(ROOT, 'bench', 'bare-jobs-server.mjs'), data, workspaceId]);
  try {
    const cases = [
      { name: 'GET /v1/jobs/{id}', requests: rotating(ids.map((id) => `/v1/jobs/${id}`)) },
      { name: 'GET /v1/jobs?limit=50', requests: rotating(['/v1/jobs?limit=50']) },
    ];
    const headers = { authorization: `Bearer ${key}` };
    for (const { name, requests } of cases) {
      await load(svc.url, { requests, headers, duration: 1 }); // warm both
      await load(bare.url, { requests, duration: 1 });
      const mine: Figures[] = [];
      const floor: Figures[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        mine.push(await load(svc.url, { requests, headers }));
        floor.push(await load(bare.url, { requests }));
      }
      const [s, b] = [median(mine), median(floor)];
      const ratio = s.perSecond / b.perSecond;
      console.log(
        `${name}\n  svc  ${fmt(s)}\n  bare ${fmt(b)}\n  ratio ${(ratio * 100).toFixed(0)}% (goal >= 50%): ${verdict(ratio, 0.5, [...mine, ...floor])}\n`,
      );
    }
  } finally {
    await svc.stop();
    await bare.stop();
  }
}

/** A data file whose workspace holds `total` jobs and what they bring (see resizeJobs). */
async function fileWith(dir: string, seeded: string, workspaceId: string, total: number) {
  const file = join(dir, `jobs-${total}.json`);
  await copyFile(seeded, file);
  const { store } = await Store.open(file);
  store.transaction((tx) => resizeJobs(tx, workspaceId, total));
  await store.close();
  return file;
}

/** One timed run of durable POST /v1/jobs on a fresh copy of `file`, after a warm-up. */
async function writeRun(dir: string, file: string, key: string): Promise<Figures> {
  const copy = join(dir, 'run.json');
  await copyFile(file, copy);
  const svc = await start([
    BIN,
    'serve',
    '--data',
    copy,
    '--port',
    '0',
    '--rate-limit',
    '1000000000',
  ]);
  try {
    let n = 0;
    const requests: autocannon.Request[] = [
      {
        method: 'POST',
        setupRequest: (req) => ({
          ...req,
          path: '/v1/jobs',
          body: JSON.stringify({
            name: `Bench roof ${n}`,
            address: `${n++} Bench Street`,
            state: 'Texas',
            zip: '75201',
            tags: 'hail,bench',
          }),
        }),
      },
    ];
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const warm = await load(svc.url, { requests, headers, duration: 1 });
    if (failed(warm)) {
      console.log(`  warm-up: ${warm.errors} errors, ${warm.non2xx} non-2xx answers`);
    }
    return await load(svc.url, { requests, headers });
  } finally {
    await svc.stop();
    await rm(copy, { force: true });
    await rm(`${copy}.journal`, { force: true });
    await rm(`${copy}.requests.jsonl`, { force: true });
  }
}

async function writes(dir: string, seeded: string, workspaceId: string, key: string) {
  console.log(
    `writes over HTTP: durable POST /v1/jobs, ${CONNECTIONS} connections, ${SECONDS} s a run after a 1 s warm-up, ${ROUNDS} rounds alternating, each on a fresh copy`,
  );
  const sizes = WRITE_JOBS.map((total) => ({ total, runs: [] as Figures[], file: '' }));
  for (const size of sizes) {
    size.file = await fileWith(dir, seeded, workspaceId, size.total);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const size of sizes) {
      size.runs.push(await writeRun(dir, size.file, key));
    }
  }
  for (const { total, runs } of sizes) {
    console.log(`  ${total.toLocaleString('en-US').padStart(6)} jobs ${fmt(median(runs))}`);
  }
  const [small, large] = sizes.map((size) => median(size.runs)) as [Figures, Figures];
  const ratio = large.perSecond / small.perSecond;
  const all = sizes.flatMap((size) => size.runs);
  console.log(`  ratio ${ratio.toFixed(2)} (goal >= 0.5): ${verdict(ratio, 0.5, all)}`);
}

async function main(): Promise<void> {
  ensureBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-jobs-'));
  try {
    const seeded = join(dir, 'seeded.json');
    const { workspaceId, key } = seed(seeded);
    await reads(dir, seeded, workspaceId, key);
    await writes(dir, seeded, workspaceId, key);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
