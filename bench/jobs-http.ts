// Jobs over HTTP, the way a client meets them. Reads: svc's whole /v1 stack (credential, plan,
// rate limit, request log, idempotency, validation, presentation) against a bare Hono server
// answering the same stored records (bench/bare-records-server.mjs, via bench/http-reads.ts), both on a data file holding
// 10,000 jobs, in one run, rounds alternating. Writes: POST /v1/jobs, each answered once fsynced,
// on a store of 1,000 and one of 50,000 jobs, each holding what that many jobs bring (contacts,
// tasks, notes, timeline), warmed up, rounds alternating, each run on a fresh copy of its file.
// A figure with any failed request (error, time-out or non-2xx answer) is a FAIL, counts shown.
// Load comes from autocannon in this process; the servers run in their own processes.
// Run: npm run bench:jobs. A quick smoke run: BENCH_SECONDS=1 BENCH_WRITE_JOBS=1000,12000.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../src/store';
import {
  CONNECTIONS,
  type Figures,
  fmt,
  median,
  ROUNDS,
  readsOf,
  SECONDS,
  seedLarge,
  verdict,
  type WriteCase,
  writeRun,
} from './http-reads';
import { resizeJobs } from './job-records';
import { ensureBuilt } from './server-process';

const WRITE_JOBS = (process.env.BENCH_WRITE_JOBS ?? '1000,50000').split(',').map(Number) as [
  number,
  number,
];

/** A data file whose workspace holds `total` jobs and what they bring (see resizeJobs). */
async function fileWith(dir: string, seeded: string, workspaceId: string, total: number) {
  const file = join(dir, `jobs-${total}.json`);
  await copyFile(seeded, file);
  const { store } = await Store.open(file);
  store.transaction((tx) => resizeJobs(tx, workspaceId, total));
  await store.close();
  return file;
}

/** Durable POST /v1/jobs: a new job each request. */
const JOB_WRITE: WriteCase = {
  path: '/v1/jobs',
  body: (n) => ({
    name: `Bench roof ${n}`,
    address: `${n} Bench Street`,
    state: 'Texas',
    zip: '75201',
    tags: 'hail,bench',
  }),
};

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
      size.runs.push(await writeRun(dir, size.file, key, JOB_WRITE));
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
    const { workspaceId, key } = seedLarge(seeded);
    await readsOf('jobs', dir, seeded, workspaceId, key, { one: 0.5, list: 0.5 });
    await writes(dir, seeded, workspaceId, key);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
