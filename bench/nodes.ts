// Several nodes on one PostgreSQL (issue 40): `npm run bench:nodes`. In one run, behind the same
// round-robin proxy (test/support/proxy.ts), the same workload on svc serving a data file, one
// node on PostgreSQL, and two nodes on one schema: 100 workspaces of 10 jobs each, 10 clients,
// each call a random workspace's GET of a job (70%), a page of its jobs (20%) or a new job (10%).
// Then, one client at a time, what a read and a write cost on PostgreSQL over the data file: the
// nodes' coordination (the version query, the shared request log's row, the lease) and
// PostgreSQL's commit. PostgreSQL is a cluster of the benchmark's own with fsync on. This machine
// has two cores for the load, the nodes and PostgreSQL alike: a second node cannot be faster
// here, and the figures say what coordinating costs, not what many cores would gain
// (docs/architecture.md plans that). Exits 0.
import { spawnSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RoundRobin, startProxy } from '../test/support/proxy';
import { BIN, ensureBuilt, ROOT, type Started, start } from './server-process';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 100);
const JOBS = 10;
const CLIENTS = 10;
const TOKEN = 'bench-nodes-admin-token-0123456789';
const CLUSTER = join(ROOT, '.ci', 'pg-cluster');

type Op = 'read' | 'page' | 'write';
interface Figures {
  perSecond: number;
  ops: Record<Op, { n: number; p99: number }>;
  failed: number;
}
interface Tenant {
  key: string;
  jobs: string[];
}

function cluster(): string {
  const out = spawnSync(CLUSTER, ['start', '--durable'], { encoding: 'utf8' });
  const [url, dir] = out.stdout.trim().split(' ');
  if (out.status !== 0 || !url || !dir) {
    throw new Error(`no PostgreSQL cluster: ${out.stderr}`);
  }
  process.on('exit', () => void spawnSync(CLUSTER, ['stop', dir], { stdio: 'ignore' }));
  return url;
}

async function call(
  url: string,
  path: string,
  opts: { method?: string; key?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, {
    method: opts.method ?? 'GET',
    headers: {
      ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as never) };
}

/** The 100 workspaces of 10 jobs each, made through the API of the store served at `url`. */
async function tenants(url: string): Promise<Tenant[]> {
  const out: Tenant[] = [];
  for (let w = 0; w < WORKSPACES; w++) {
    const ws = await call(url, '/__admin/workspaces', {
      method: 'POST',
      key: TOKEN,
      body: { name: `Bench ${w}`, profile: 'empty' },
    });
    const key = (ws.body.keys as { write: { key: string } }).write.key;
    const jobs = await Promise.all(
      Array.from({ length: JOBS }, (_, j) =>
        call(url, '/v1/jobs', {
          method: 'POST',
          key,
          body: { name: `Job ${w}-${j}`, address: '1 Main St' },
        }).then((r) => r.body.id as string),
      ),
    );
    out.push({ key, jobs });
  }
  return out;
}

/** One call of the mix: what it was, how long it took (ms), and whether it was answered 2xx. */
async function oneCall(url: string, all: Tenant[], op: Op): Promise<boolean> {
  const t = all[Math.floor(Math.random() * all.length)] as Tenant;
  if (op === 'read') {
    const id = t.jobs[Math.floor(Math.random() * t.jobs.length)];
    return (await call(url, `/v1/jobs/${id}`, { key: t.key })).status === 200;
  }
  if (op === 'page') {
    return (await call(url, '/v1/jobs?limit=50', { key: t.key })).status === 200;
  }
  const made = await call(url, '/v1/jobs', {
    method: 'POST',
    key: t.key,
    body: { name: 'Bench write', address: '2 Main St' },
  });
  return made.status === 201;
}

const pick = (): Op => {
  const r = Math.random();
  return r < 0.7 ? 'read' : r < 0.9 ? 'page' : 'write';
};

async function mix(url: string, all: Tenant[], clients: number, seconds: number) {
  const times: Record<Op, number[]> = { read: [], page: [], write: [] };
  let failed = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < end) {
        const op = pick();
        const t0 = performance.now();
        const ok = await oneCall(url, all, op).catch(() => false);
        times[op].push(performance.now() - t0);
        failed += ok ? 0 : 1;
      }
    }),
  );
  return { times, failed };
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? 0;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

async function figures(url: string, all: Tenant[]): Promise<Figures> {
  await mix(url, all, CLIENTS, 1); // warm: every workspace loaded, the JIT settled
  const { times, failed } = await mix(url, all, CLIENTS, SECONDS);
  const n = times.read.length + times.page.length + times.write.length;
  const op = (o: Op) => ({ n: times[o].length, p99: p99(times[o]) });
  return {
    perSecond: n / SECONDS,
    ops: { read: op('read'), page: op('page'), write: op('write') },
    failed,
  };
}

/** Mean ms of a read and of a write, one client at a time. */
async function alone(url: string, all: Tenant[]): Promise<{ read: number; write: number }> {
  const reads: number[] = [];
  const writes: number[] = [];
  for (let i = 0; i < 400; i++) {
    for (const [op, into] of [
      ['read', reads],
      ['write', writes],
    ] as const) {
      const t0 = performance.now();
      await oneCall(url, all, op);
      into.push(performance.now() - t0);
    }
  }
  return { read: mean(reads.slice(50)), write: mean(writes.slice(50)) };
}

async function main(): Promise<void> {
  ensureBuilt();
  const pg = cluster();
  const work = join(tmpdir(), `svc-bench-nodes-${process.pid}`);
  await mkdir(work, { recursive: true });
  const common = ['--port', '0', '--rate-limit', 'off', '--no-seed', '--admin-token', TOKEN];
  const node = (schema: string, name: string) =>
    start([
      BIN,
      'serve',
      '--store',
      pg,
      '--store-schema',
      schema,
      '--data',
      join(work, `${schema}-${name}.json`),
      ...common,
    ]);
  const setups: { name: string; nodes: () => Promise<Started[]> }[] = [
    {
      name: 'data file',
      nodes: async () => [
        await start([BIN, 'serve', '--data', join(work, 'file.json'), ...common]),
      ],
    },
    { name: 'one node', nodes: async () => [await node('one', 'a')] },
    {
      name: 'two nodes',
      nodes: async () => {
        const first = await node('two', 'a');
        return [first, await node('two', 'b')];
      },
    },
  ];
  const results: { name: string; figures: Figures; alone: { read: number; write: number } }[] = [];
  for (const setup of setups) {
    const nodes = await setup.nodes();
    const proxy: RoundRobin = await startProxy(nodes.map((n) => n.url));
    try {
      const all = await tenants(proxy.url);
      results.push({
        name: setup.name,
        figures: await figures(proxy.url, all),
        alone: await alone(proxy.url, all),
      });
    } finally {
      await proxy.close();
      await Promise.all(nodes.map((n) => n.stop()));
    }
  }
  await rm(work, { recursive: true, force: true });
  console.log(
    `${WORKSPACES} workspaces × ${JOBS} jobs; ${CLIENTS} clients, ${SECONDS} s: 70% GET /v1/jobs/{id}, 20% GET /v1/jobs?limit=50, 10% POST /v1/jobs; all through one round-robin proxy`,
  );
  for (const r of results) {
    const { ops } = r.figures;
    console.log(
      `${r.name.padEnd(10)} ${Math.round(r.figures.perSecond)} req/s; p99 read ${ops.read.p99.toFixed(1)} ms, page ${ops.page.p99.toFixed(1)} ms, write ${ops.write.p99.toFixed(1)} ms; failed ${r.figures.failed}; alone: read ${(r.alone.read * 1000).toFixed(0)} µs, write ${(r.alone.write * 1000).toFixed(0)} µs`,
    );
  }
  const [file, one, two] = results;
  if (file && one && two) {
    const us = (ms: number) => `${Math.round(ms * 1000)} µs`;
    console.log(
      `on PostgreSQL over the data file, one client: read +${us(one.alone.read - file.alone.read)}, write +${us(one.alone.write - file.alone.write)} (coordination and PostgreSQL's commit)`,
    );
    console.log(
      `two nodes against one: ${Math.round((100 * two.figures.perSecond) / one.figures.perSecond)}% of the throughput; one client: read ${us(two.alone.read - one.alone.read)}, write ${us(two.alone.write - one.alone.write)} more (the lease and catching up change hands)`,
    );
  }
}

await main();
