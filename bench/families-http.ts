// The other families' reads over HTTP (issue 35, item 3): GET /v1/invoices/{id},
// /v1/payments?job_id=, /v1/pins, /v1/files and /v1/storm_lists/{id}/properties on the `large`
// workspace, each against the bare route server answering the same records (bench/bare-records-
// server.mjs), in one run, rounds alternating, servers on core 1 and the load on core 0 where the
// machine has two. The large profile holds no files and no storm lists: svc makes 500 files
// (uploads) and builds a storm list (as the app does) first, then stops, so both servers read one
// data file. Goal: each at least 60% of bare. Run: npm run bench:families.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { seedLarge } from './http-reads';
import { BIN, ensureBuilt, ROOT, type Started, start } from './server-process';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL = 0.6;

function pinned(): { server?: string } {
  if (availableParallelism() < 2 || spawnSync('taskset', ['-V']).status !== 0) {
    return {};
  }
  spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  return { server: '1' };
}

/** Files and a storm list in the workspace, made through svc and folded into `file`. */
async function prepare(file: string, workspaceId: string, key: string): Promise<void> {
  const svc = await start([BIN, 'serve', '--data', file, '--port', '0', '--rate-limit', 'off']);
  const auth = { authorization: `Bearer ${key}` };
  try {
    const jobs = (await (
      await fetch(`${svc.url}/v1/jobs?limit=100`, { headers: auth })
    ).json()) as {
      data: { id: string }[];
    };
    const photo = new Uint8Array(2048).fill(7);
    for (let i = 0; i < 500; i++) {
      const form = new FormData();
      form.set('job_id', jobs.data[i % jobs.data.length]?.id ?? '');
      form.set('category', i % 3 === 0 ? 'photo' : 'document');
      form.set('description', `Bench file ${i}`);
      form.set('file', new Blob([photo], { type: 'application/octet-stream' }), `bench-${i}.bin`);
      const res = await fetch(`${svc.url}/v1/files`, { method: 'POST', headers: auth, body: form });
      if (res.status !== 201) {
        throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      }
    }
    const hail = (await (
      await fetch(`${svc.url}/v1/hail_history?latitude=35.4676&longitude=-97.5164`, {
        headers: auth,
      })
    ).json()) as { hail_events: { date: string }[] };
    const day = hail.hail_events[0]?.date;
    const admin = (path: string, body: unknown) =>
      fetch(`${svc.url}/__admin${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const built = await admin(`/workspaces/${workspaceId}/storm_lists`, {
      name: 'Bench list',
      window_from: day,
      window_to: day,
      min_size_in: 0.5,
      property_cap: 2000,
      dedupe_days: 0,
      area: { latitude: 35.4676, longitude: -97.5164, radius_mi: 10 },
    });
    if (built.status !== 201) {
      throw new Error(`the storm list build answered ${built.status}: ${await built.text()}`);
    }
    await admin('/clock', { advance_seconds: 30 });
  } finally {
    await svc.stop(); // a clean stop folds what was made into the data file
  }
}

interface Case {
  name: string;
  paths: string[];
}

async function cases(file: string, workspaceId: string): Promise<Case[]> {
  const ws =
    (
      JSON.parse(await readFile(file, 'utf8')) as {
        workspaces: Record<string, Record<string, Record<string, Record<string, unknown>>>>;
      }
    ).workspaces[workspaceId] ?? {};
  const ids = (coll: string) => Object.keys(ws[coll] ?? {});
  const payments = Object.values(ws.payments ?? {});
  const byJob = new Map<string, number>();
  for (const p of payments) {
    byJob.set(String(p.job_id), (byJob.get(String(p.job_id)) ?? 0) + 1);
  }
  const jobsWithPayments = [...byJob.keys()].slice(0, 200);
  const list = ids('storm_lists')[0];
  return [
    { name: 'GET /v1/invoices/{id}', paths: ids('invoices').map((id) => `/v1/invoices/${id}`) },
    {
      name: 'GET /v1/payments?job_id=',
      paths: jobsWithPayments.map((id) => `/v1/payments?job_id=${id}`),
    },
    { name: 'GET /v1/pins', paths: ['/v1/pins'] },
    { name: 'GET /v1/files', paths: ['/v1/files'] },
    {
      name: 'GET /v1/storm_lists/{id}/properties',
      paths: [`/v1/storm_lists/${list}/properties`],
    },
  ];
}

async function load(server: Started, paths: string[], key: string | undefined, seconds: number) {
  let i = 0;
  const r = await autocannon({
    url: server.url,
    connections: 10,
    duration: seconds,
    ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}),
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] as string }),
      },
    ],
  });
  return { perSecond: r.requests.average, failed: r.errors + r.non2xx, p99: r.latency.p99 };
}

async function main(): Promise<void> {
  ensureBuilt();
  const cpu = pinned();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-families-'));
  try {
    const seeded = join(dir, 'seeded.json');
    const { workspaceId, key } = seedLarge(seeded);
    await prepare(seeded, workspaceId, key);
    const all = await cases(seeded, workspaceId);
    const data = join(dir, 'data.json');
    await copyFile(seeded, data);
    const svc = await start(
      [BIN, 'serve', '--data', data, '--port', '0', '--rate-limit', '1000000000'],
      60_000,
      { cpu: cpu.server },
    );
    const bare = await start(
      [join(ROOT, 'bench', 'bare-records-server.mjs'), seeded, workspaceId],
      60_000,
      { cpu: cpu.server },
    );
    console.log(
      `reads over HTTP on the large workspace, 10 connections, ${ROUNDS} rounds of ${SECONDS} s alternating${cpu.server ? ', servers on core 1, load on core 0' : ''}\n`,
    );
    try {
      for (const c of all) {
        await load(svc, c.paths, key, 0.5); // warm both: svc parses what the route reads
        await load(bare, c.paths, undefined, 0.5);
        const mine: Awaited<ReturnType<typeof load>>[] = [];
        const floor: Awaited<ReturnType<typeof load>>[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          mine.push(await load(svc, c.paths, key, SECONDS));
          floor.push(await load(bare, c.paths, undefined, SECONDS));
        }
        const ratios = mine.map((m, i) => m.perSecond / (floor[i]?.perSecond ?? Number.NaN));
        const sorted = [...ratios].sort((a, b) => a - b);
        const mid = sorted.length >> 1;
        const ratio =
          sorted.length % 2 === 1
            ? (sorted[mid] ?? 0)
            : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
        const failed = [...mine, ...floor].reduce((n, r) => n + r.failed, 0);
        const med = (rs: { perSecond: number }[]) =>
          Math.round(
            [...rs].sort((a, b) => a.perSecond - b.perSecond)[rs.length >> 1]?.perSecond ?? 0,
          );
        const pass = failed === 0 && ratio >= GOAL;
        console.log(
          `${c.name}\n  svc ${med(mine).toLocaleString('en-US')} req/s, bare ${med(floor).toLocaleString('en-US')} req/s\n  ratio ${(ratio * 100).toFixed(0)}% (rounds ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(' ')})${failed ? `, ${failed} failed requests` : ''} (goal >= ${GOAL * 100}%): ${pass ? 'PASS' : 'FAIL'}\n`,
        );
      }
    } finally {
      await svc.stop();
      await bare.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
