// The guard against slowdowns (issue 35), run before resolving anything that touches the request
// path, the store, presentation or the request log: `npm run bench:guard`, well under a minute.
// On a 10,000-job workspace (`svc seed --profile large`), in one run beside the bare route server
// (bench/bare-records-server.mjs, the same records answered by a plain Hono route), rounds
// alternating: GET /v1/jobs/{id}, GET /v1/jobs?limit=50, durable POST /v1/jobs, and the start to
// the first answered page. With two cores or more, every server runs on core 1 and the load on
// core 0 (taskset), so a figure is what one core gives. Prints each figure with svc's share of
// bare's, the CPU a request took in each server (from /proc: steadier than throughput on a
// shared machine), and PASS or FAIL against the issue's goals; it exits 0 either way.
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
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

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

const GOALS = { page: 1.2, one: 0.8, p99Ms: 10, start: 1.2, writes: 3000 };

async function main(): Promise<void> {
  ensureBuilt();
  const pin = cores();
  const { file, workspaceId, key } = await seeded();
  const work = join(tmpdir(), `svc-bench-guard-run-${process.pid}`);
  await mkdir(work, { recursive: true });
  const headers = { authorization: `Bearer ${key}` };
  let copies = 0;
  const serve = async (kind: 'svc' | 'bare') => {
    const copy = join(work, `copy-${copies++}.json`);
    await copyFile(file, copy); // a fresh file: no journal or request log of an earlier run
    const t0 = performance.now();
    const args =
      kind === 'svc'
        ? [BIN, 'serve', '--data', copy, '--port', '0', '--rate-limit', '1000000000']
        : [join(ROOT, 'bench', 'bare-records-server.mjs'), copy, workspaceId, 'jobs'];
    const server = await start(args, 60_000, { cpu: pin?.server });
    const startMs = await firstAnswer(`${server.url}/v1/jobs?limit=50`, key, t0);
    return { server, startMs, copy };
  };
  const stopAll = async (s: { server: Started; copy: string }) => {
    await s.server.kill();
    await rm(work, { recursive: true, force: true }).catch(() => {});
    await mkdir(work, { recursive: true });
  };

  const figures = {
    svc: { start: [] as number[], page: [] as Run[], one: [] as Run[], post: [] as Run[] },
    bare: { start: [] as number[], page: [] as Run[], one: [] as Run[], post: [] as Run[] },
  };
  let ids: string[] = [];
  let posted = 0;
  const postRequests = (): autocannon.Request[] => [
    {
      method: 'POST',
      setupRequest: (req) => ({
        ...req,
        path: '/v1/jobs',
        body: JSON.stringify({
          name: `Guard roof ${posted}`,
          address: `${posted++} Guard Street`,
          state: 'Texas',
          zip: '75201',
          tags: 'hail,bench',
        }),
      }),
    },
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 === 0 ? (['svc', 'bare'] as const) : (['bare', 'svc'] as const)) {
      const s = await serve(kind);
      try {
        figures[kind].start.push(s.startMs);
        if (ids.length === 0) {
          const page = (await (
            await fetch(`${s.server.url}/v1/jobs?limit=200`, { headers })
          ).json()) as {
            data: { id: string }[];
          };
          ids = page.data.map((j) => j.id);
        }
        let i = 0;
        const byId: autocannon.Request[] = [
          {
            method: 'GET',
            setupRequest: (req) => ({ ...req, path: `/v1/jobs/${ids[i++ % ids.length]}` }),
          },
        ];
        const page = { requests: [{ method: 'GET' as const, path: '/v1/jobs?limit=50' }], headers };
        await settled(s.server.pid);
        await load(s.server, page, 0.5); // warm
        await load(s.server, { requests: byId, headers }, 0.5);
        figures[kind].page.push(await load(s.server, page));
        figures[kind].one.push(await load(s.server, { requests: byId, headers }));
        const post = {
          requests: postRequests(),
          headers: { ...headers, 'content-type': 'application/json' },
        };
        await load(s.server, post, 0.5);
        figures[kind].post.push(await load(s.server, post));
      } finally {
        await stopAll(s);
      }
    }
  }
  await rm(work, { recursive: true, force: true });
  report(figures, pin !== undefined);
}

type Figures = Record<'svc' | 'bare', { start: number[]; page: Run[]; one: Run[]; post: Run[] }>;

function report(f: Figures, pinned: boolean): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const failed = [
    ...f.svc.page,
    ...f.svc.one,
    ...f.svc.post,
    ...f.bare.page,
    ...f.bare.one,
    ...f.bare.post,
  ].reduce((sum, r) => sum + r.failed, 0);
  console.log(
    `bench:guard: 10,000 jobs, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s alternating, ${pinned ? 'servers on core 1, load on core 0' : 'not pinned (one core or no taskset)'}\n`,
  );
  const verdicts: [string, boolean][] = [];
  const ratioLine = (name: string, key: 'page' | 'one', goal: number) => {
    const ratios = f.svc[key].map(
      (r, i) => r.perSecond / (f.bare[key][i]?.perSecond ?? Number.NaN),
    );
    const ratio = median(ratios);
    const p99 = Math.max(...f.svc[key].map((r) => r.p99));
    const cpu = median(f.svc[key].map((r) => r.cpuUs));
    const bareCpu = median(f.bare[key].map((r) => r.cpuUs));
    const pass = ratio >= goal && p99 < GOALS.p99Ms;
    verdicts.push([name, pass]);
    console.log(
      `${name}\n  svc  ${n(median(f.svc[key].map((r) => r.perSecond)))} req/s, p99 ${p99} ms, ${n(cpu)} us CPU a request\n  bare ${n(median(f.bare[key].map((r) => r.perSecond)))} req/s, p99 ${Math.max(...f.bare[key].map((r) => r.p99))} ms, ${n(bareCpu)} us CPU a request\n  ratio ${(ratio * 100).toFixed(0)}% (rounds ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(' ')}), CPU ${((bareCpu / cpu) * 100).toFixed(0)}% (goal >= ${goal * 100}%, p99 < ${GOALS.p99Ms} ms): ${pass ? 'PASS' : 'FAIL'}\n`,
    );
  };
  ratioLine('GET /v1/jobs?limit=50', 'page', GOALS.page);
  ratioLine('GET /v1/jobs/{id}', 'one', GOALS.one);
  const writes = median(f.svc.post.map((r) => r.perSecond));
  const writesPass = writes >= GOALS.writes;
  verdicts.push(['POST /v1/jobs', writesPass]);
  console.log(
    `POST /v1/jobs (durable: answered once fsynced)\n  svc  ${n(writes)} req/s, p99 ${Math.max(...f.svc.post.map((r) => r.p99))} ms, ${n(median(f.svc.post.map((r) => r.cpuUs)))} us CPU a request\n  bare ${n(median(f.bare.post.map((r) => r.perSecond)))} req/s (in memory, nothing durable)\n  goal >= ${n(GOALS.writes)}/s on one core: ${writesPass ? 'PASS' : 'FAIL'}\n`,
  );
  const startRatio = median(f.svc.start.map((s, i) => s / (f.bare.start[i] ?? Number.NaN)));
  const startPass = startRatio <= GOALS.start;
  verdicts.push(['start', startPass]);
  console.log(
    `start to the first page answered\n  svc  ${f.svc.start.map(n).join(', ')} ms\n  bare ${f.bare.start.map(n).join(', ')} ms\n  ${startRatio.toFixed(2)}x bare (goal <= ${GOALS.start}x): ${startPass ? 'PASS' : 'FAIL'}\n`,
  );
  if (failed > 0) {
    verdicts.push(['requests', false]);
    console.log(`${failed} requests failed (errors or non-2xx answers)`);
  }
  const failing = verdicts.filter(([, pass]) => !pass).map(([name]) => name);
  console.log(
    failing.length === 0 ? 'bench:guard PASS' : `bench:guard FAIL: ${failing.join(', ')}`,
  );
}

await main();
process.exit(0);
