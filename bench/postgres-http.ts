// svc on PostgreSQL beside svc on the JSON file (issue 39): `npm run bench:postgres`. On the
// `large` workspace (10,000 jobs), in one run, rounds alternating, the same figures as the guard
// (GET /v1/jobs/{id}, GET /v1/jobs?limit=50, durable POST /v1/jobs at 10 connections) for svc
// serving the data file and svc serving a PostgreSQL copy of it (`svc store copy`, a schema a
// round). PostgreSQL is a cluster of the benchmark's own on 127.0.0.1 with fsync on (.ci/pg-cluster
// start --durable): a POST is answered once PostgreSQL committed it to disk. svc runs on core 1
// and the load on core 0 where the machine has two; PostgreSQL is not pinned (its backends take
// the core the load leaves). Goals: PostgreSQL's reads at least 50% of the file's, its durable POST
// at least 1,000/s with p99 under 10 ms. Then kill -9 trials (bench/postgres-crash.ts): 0
// acknowledged writes lost. Exits 0 either way.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { crashTrials, type Trials } from './postgres-crash';
import {
  CONNECTIONS,
  cores,
  firstAnswer,
  load,
  median,
  type Run,
  SECONDS,
  seeded,
  settled,
} from './server-load';
import { BIN, ensureBuilt, ROOT, type Started, start } from './server-process';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CRASHES = Number(process.env.BENCH_CRASHES ?? 10);
const GOALS = { reads: 0.5, writes: 1000, p99Ms: 10 };
const CLUSTER = join(ROOT, '.ci', 'pg-cluster');

type Kind = 'file' | 'postgres';
type Figures = Record<Kind, { start: number[]; page: Run[]; one: Run[]; post: Run[] }>;

function cluster(): { url: string; stop: () => void } {
  const out = spawnSync(CLUSTER, ['start', '--durable'], { encoding: 'utf8' });
  const [url, dir] = out.stdout.trim().split(' ');
  if (out.status !== 0 || !url || !dir) {
    throw new Error(`no PostgreSQL cluster: ${out.stderr}`);
  }
  const stop = () => void spawnSync(CLUSTER, ['stop', dir], { stdio: 'ignore' });
  process.on('exit', stop);
  return { url, stop };
}

function copyInto(file: string, url: string, schema: string): number {
  const t0 = performance.now();
  const out = spawnSync(
    process.execPath,
    [BIN, 'store', 'copy', '--from', file, '--to', url, '--store-schema', schema],
    { encoding: 'utf8' },
  );
  if (out.status !== 0) {
    throw new Error(`svc store copy failed: ${out.stderr}`);
  }
  return performance.now() - t0;
}

async function main(): Promise<void> {
  ensureBuilt();
  const pin = cores();
  const pg = cluster();
  const { file, key } = await seeded();
  const work = join(tmpdir(), `svc-bench-postgres-${process.pid}`);
  await mkdir(work, { recursive: true });
  const headers = { authorization: `Bearer ${key}` };
  const copies: number[] = [];
  const serve = async (kind: Kind, round: number) => {
    const copy = join(work, `copy-${round}.json`);
    const rest = ['--port', '0', '--rate-limit', '1000000000'];
    let args: string[];
    if (kind === 'file') {
      await copyFile(file, copy); // a fresh file: no journal or request log of an earlier round
      args = [BIN, 'serve', '--data', copy, ...rest];
    } else {
      copies.push(copyInto(file, pg.url, `bench_${round}`));
      args = [BIN, 'serve', '--store', pg.url, '--store-schema', `bench_${round}`];
      args.push('--data', join(work, `node-${round}.json`), ...rest);
    }
    const t0 = performance.now();
    const server = await start(args, 120_000, { cpu: pin?.server });
    return { server, startMs: await firstAnswer(`${server.url}/v1/jobs?limit=50`, key, t0) };
  };
  const figures: Figures = {
    file: { start: [], page: [], one: [], post: [] },
    postgres: { start: [], page: [], one: [], post: [] },
  };
  let ids: string[] = [];
  let posted = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const order: Kind[] = round % 2 === 0 ? ['file', 'postgres'] : ['postgres', 'file'];
    for (const kind of order) {
      const s = await serve(kind, round);
      try {
        figures[kind].start.push(s.startMs);
        if (ids.length === 0) {
          ids = await someIds(s.server.url, headers);
        }
        await measure(s.server, figures[kind], ids, headers, () => posted++);
      } finally {
        await s.server.kill();
      }
    }
  }
  await rm(work, { recursive: true, force: true });
  const crashes = await crashTrials(pg.url, CRASHES);
  pg.stop();
  report(figures, pin !== undefined, copies, crashes);
}

async function someIds(url: string, headers: Record<string, string>): Promise<string[]> {
  const page = (await (await fetch(`${url}/v1/jobs?limit=200`, { headers })).json()) as {
    data: { id: string }[];
  };
  return page.data.map((j) => j.id);
}

async function measure(
  server: Started,
  into: Figures[Kind],
  ids: string[],
  headers: Record<string, string>,
  next: () => number,
): Promise<void> {
  let i = 0;
  const byId = {
    requests: [
      {
        method: 'GET' as const,
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          path: `/v1/jobs/${ids[i++ % ids.length]}`,
        }),
      },
    ],
    headers,
  };
  const page = { requests: [{ method: 'GET' as const, path: '/v1/jobs?limit=50' }], headers };
  const post = {
    requests: [
      {
        method: 'POST' as const,
        setupRequest: (req: autocannon.Request) => {
          const n = next();
          return {
            ...req,
            path: '/v1/jobs',
            body: JSON.stringify({ name: `Bench roof ${n}`, address: `${n} Bench Street` }),
          };
        },
      },
    ],
    headers: { ...headers, 'content-type': 'application/json' },
  };
  await settled(server.pid);
  await load(server, page, 0.5); // warm
  await load(server, byId, 0.5);
  into.page.push(await load(server, page));
  into.one.push(await load(server, byId));
  await load(server, post, 0.5);
  into.post.push(await load(server, post));
}

function report(f: Figures, pinned: boolean, copies: number[], crashes: Trials): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  console.log(
    `bench:postgres: 10,000 jobs, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s alternating, ${pinned ? 'svc on core 1, load on core 0' : 'not pinned (one core or no taskset)'}; PostgreSQL with fsync on\n`,
  );
  const verdicts: [string, boolean][] = [];
  const line = (kind: Kind, runs: Run[]) =>
    `  ${kind.padEnd(8)} ${n(median(runs.map((r) => r.perSecond)))} req/s, p99 ${Math.max(...runs.map((r) => r.p99))} ms, ${n(median(runs.map((r) => r.cpuUs)))} us svc CPU a request`;
  for (const [name, key] of [
    ['GET /v1/jobs?limit=50', 'page'],
    ['GET /v1/jobs/{id}', 'one'],
  ] as const) {
    const ratios = f.postgres[key].map(
      (r, i) => r.perSecond / (f.file[key][i]?.perSecond ?? Number.NaN),
    );
    const ratio = median(ratios);
    const pass = ratio >= GOALS.reads;
    verdicts.push([name, pass]);
    console.log(
      `${name}\n${line('file', f.file[key])}\n${line('postgres', f.postgres[key])}\n  PostgreSQL ${(ratio * 100).toFixed(0)}% of the file (rounds ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(' ')}; goal >= ${GOALS.reads * 100}%): ${pass ? 'PASS' : 'FAIL'}\n`,
    );
  }
  const writes = median(f.postgres.post.map((r) => r.perSecond));
  const p99 = Math.max(...f.postgres.post.map((r) => r.p99));
  const writesPass = writes >= GOALS.writes && p99 < GOALS.p99Ms;
  verdicts.push(['POST /v1/jobs', writesPass]);
  console.log(
    `POST /v1/jobs (durable: answered once committed)\n${line('file', f.file.post)}\n${line('postgres', f.postgres.post)}\n  goal on PostgreSQL >= ${n(GOALS.writes)}/s, p99 < ${GOALS.p99Ms} ms: ${writesPass ? 'PASS' : 'FAIL'}\n`,
  );
  console.log(
    `start to the first page answered\n  file     ${f.file.start.map(n).join(', ')} ms\n  postgres ${f.postgres.start.map(n).join(', ')} ms\n  (svc store copy of the file into a new schema: ${copies.map(n).join(', ')} ms)\n`,
  );
  const crashPass = crashes.lost === 0;
  verdicts.push(['kill -9', crashPass]);
  console.log(
    `kill -9 under 10 writers\n  ${crashes.trials} trials, ${n(crashes.acknowledged)} writes acknowledged, ${crashes.lost} lost (goal 0): ${crashPass ? 'PASS' : 'FAIL'}\n`,
  );
  const failed = (['file', 'postgres'] as const)
    .flatMap((kind) => [...f[kind].page, ...f[kind].one, ...f[kind].post])
    .reduce((sum, r) => sum + r.failed, 0);
  if (failed > 0) {
    verdicts.push(['requests', false]);
    console.log(`${failed} requests failed (errors or non-2xx answers)`);
  }
  const failing = verdicts.filter(([, pass]) => !pass).map(([name]) => name);
  console.log(
    failing.length === 0 ? 'bench:postgres PASS' : `bench:postgres FAIL: ${failing.join(', ')}`,
  );
}

await main();
process.exit(0);
