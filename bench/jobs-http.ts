// Jobs over HTTP, the way a client meets them. Reads: svc's whole /v1 stack (credential, plan,
// rate limit, request log, idempotency, validation, presentation) against a bare Hono server
// answering the same stored records (bench/bare-jobs-server.mjs), both on a data file holding
// 10,000 jobs, in one run, rounds alternating. Writes: POST /v1/jobs, each answered once fsynced,
// with 1,000 and with 50,000 jobs in the store. Load comes from autocannon in this process; the
// servers run in their own processes. Run: npm run bench:jobs
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Job } from '../src/resources/jobs/schema';
import { Store } from '../src/store';
import { BIN, ensureBuilt, ROOT, start } from './server-process';

const SECONDS = 5;
const ROUNDS = 2;
const CONNECTIONS = 16;

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, opts: Partial<autocannon.Options>): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...opts });
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const fmt = (f: Figures) =>
  `${Math.round(f.perSecond).toLocaleString('en-US').padStart(7)} req/s  p50 ${f.p50.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms${f.errors ? `  (${f.errors} errors)` : ''}`;
const median = (list: Figures[]) =>
  [...list].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(list.length / 2)] as Figures;

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

async function reads(dir: string): Promise<void> {
  const data = join(dir, 'large.json');
  const { workspaceId, key } = seed(data);
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
        `${name}\n  svc  ${fmt(s)}\n  bare ${fmt(b)}\n  ratio ${(ratio * 100).toFixed(0)}% (goal >= 50%): ${ratio >= 0.5 ? 'PASS' : 'FAIL'}\n`,
      );
    }
  } finally {
    await svc.stop();
    await bare.stop();
  }
}

/** A data file whose workspace holds `total` jobs: the seeded ones, cloned under fresh ids. */
async function fileWith(dir: string, total: number): Promise<{ file: string; key: string }> {
  const file = join(dir, `jobs-${total}.json`);
  const { workspaceId, key } = seed(file);
  const { store } = await Store.open(file);
  const ws = store.workspace(workspaceId);
  const seeded = [...ws.values('jobs')];
  store.transaction((tx) => {
    const scope = tx.workspace(workspaceId);
    for (const job of seeded.slice(total)) {
      scope.delete('jobs', job.id);
    }
    for (let n = Math.min(seeded.length, total), i = 0; n < total; n++, i++) {
      const source = seeded[i % seeded.length] as Job;
      scope.put('jobs', { ...source, id: randomUUID(), portal_token: randomUUID() });
    }
  });
  await store.close();
  return { file, key };
}

async function writes(dir: string): Promise<void> {
  console.log(`writes over HTTP: durable POST /v1/jobs, ${CONNECTIONS} connections, ${SECONDS} s`);
  const figures: Figures[] = [];
  for (const total of [1_000, 50_000]) {
    const { file, key } = await fileWith(dir, total);
    const svc = await start([
      BIN,
      'serve',
      '--data',
      file,
      '--port',
      '0',
      '--rate-limit',
      '1000000000',
    ]);
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
    const result = await load(svc.url, { requests, headers });
    figures.push(result);
    console.log(`  ${total.toLocaleString('en-US').padStart(6)} jobs ${fmt(result)}`);
    await svc.stop();
  }
  const [small, large] = figures as [Figures, Figures];
  const ratio = large.perSecond / small.perSecond;
  console.log(`  ratio ${ratio.toFixed(2)} (goal >= 0.5): ${ratio >= 0.5 ? 'PASS' : 'FAIL'}`);
}

async function main(): Promise<void> {
  ensureBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-jobs-'));
  try {
    await reads(dir);
    await writes(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
