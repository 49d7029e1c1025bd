// Reads over HTTP against the floor: svc's whole /v1 stack (credential, plan, rate limit, request
// log, idempotency, validation, presentation) against bench/bare-records-server.mjs answering the
// same stored records, on one data file, in one run, rounds alternating. Shared by the resource
// benchmarks (jobs, invoices).
import { spawnSync } from 'node:child_process';
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Store, type WorkspaceCollections } from '../src/store';
import type { Name } from '../src/store/collections';
import { BIN, ROOT, start } from './server-process';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
// Five rounds: on this shared two-core machine one round's figures move by a third.
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
export const CONNECTIONS = 16;

export interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
  /** Connection errors (time-outs included) and answers that were not 2xx. */
  errors: number;
  non2xx: number;
}

export async function load(url: string, opts: Partial<autocannon.Options>): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...opts });
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export const failed = (f: Figures) => f.errors + f.non2xx > 0;
export const fmt = (f: Figures) =>
  `${Math.round(f.perSecond).toLocaleString('en-US').padStart(7)} req/s  p50 ${f.p50.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms${failed(f) ? `  (${f.errors} errors, ${f.non2xx} non-2xx)` : ''}`;
export const median = (list: Figures[]) =>
  [...list].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(list.length / 2)] as Figures;

/** PASS only when the ratio meets its goal and no request of any run failed. */
export function verdict(ratio: number, goal: number, runs: Figures[]): string {
  const errors = runs.reduce((n, f) => n + f.errors, 0);
  const non2xx = runs.reduce((n, f) => n + f.non2xx, 0);
  if (errors + non2xx > 0) {
    return `FAIL (${errors} errors, ${non2xx} non-2xx answers)`;
  }
  return ratio >= goal ? 'PASS' : 'FAIL';
}

/** `svc seed --profile large --seed 1` into `file`: its workspace and write key. */
export function seedLarge(file: string): { workspaceId: string; key: string } {
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

/** A request that names one of the paths, in turn. */
function rotating(paths: string[]): autocannon.Request[] {
  let i = 0;
  return [
    {
      method: 'GET',
      setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] as string }),
    },
  ];
}

/** svc's share of bare's a figure must reach: the read by id, and the page (none: printed only). */
export interface Goals {
  one: number;
  list?: number;
}

/**
 * GET /v1/<coll>/{id} (the id rotating over every record) and GET /v1/<coll>?limit=50, svc
 * against the bare server, each figure with svc's share of bare's against its goal.
 */
export async function readsOf(
  coll: Name<WorkspaceCollections>,
  dir: string,
  seeded: string,
  workspaceId: string,
  key: string,
  goals: Goals,
): Promise<void> {
  const data = join(dir, `${coll}.json`);
  await copyFile(seeded, data);
  const store = await Store.open(data);
  const ids = [...store.store.workspace(workspaceId).values(coll)].map((r) => r.id);
  await store.store.close();
  console.log(
    `reads over HTTP: ${ids.length.toLocaleString('en-US')} ${coll}; ${CONNECTIONS} connections, ${SECONDS} s a run, ${ROUNDS} rounds alternating\n`,
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
  const bare = await start([
    join(ROOT, 'bench', 'bare-records-server.mjs'),
    data,
    workspaceId,
    coll,
  ]);
  try {
    const cases = [
      {
        name: `GET /v1/${coll}/{id}`,
        goal: goals.one,
        requests: rotating(ids.map((id) => `/v1/${coll}/${id}`)),
      },
      {
        name: `GET /v1/${coll}?limit=50`,
        goal: goals.list,
        requests: rotating([`/v1/${coll}?limit=50`]),
      },
    ];
    const headers = { authorization: `Bearer ${key}` };
    for (const { name, goal, requests } of cases) {
      await load(svc.url, { requests, headers, duration: 1 }); // warm both
      await load(bare.url, { requests, duration: 1 });
      const mine: Figures[] = [];
      const floor: Figures[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        mine.push(await load(svc.url, { requests, headers }));
        floor.push(await load(bare.url, { requests }));
      }
      const [s, b] = [median(mine), median(floor)];
      // Each round's svc run against the bare run just after it, the median of those: the
      // machine's drift between rounds then moves both figures of a ratio alike.
      const ratios = mine.map((f, i) => f.perSecond / (floor[i] as Figures).perSecond);
      const ratio = [...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)] as number;
      const target = goal === undefined ? 'no goal' : `goal >= ${goal * 100}%`;
      const pass = goal === undefined ? '' : `: ${verdict(ratio, goal, [...mine, ...floor])}`;
      console.log(
        `${name}\n  svc  ${fmt(s)}\n  bare ${fmt(b)}\n  ratio ${(ratio * 100).toFixed(0)}%, the median of the rounds' ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(' ')} (${target})${pass}\n`,
      );
    }
  } finally {
    await svc.stop();
    await bare.stop();
  }
}

/** What a write benchmark posts: its path, and the body of its n-th request. */
export interface WriteCase {
  path: string;
  body: (n: number) => unknown;
}

/** One timed run of a durable write on a fresh copy of `file`, after a 1 s warm-up. */
export async function writeRun(
  dir: string,
  file: string,
  key: string,
  c: WriteCase,
): Promise<Figures> {
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
        setupRequest: (req) => ({ ...req, path: c.path, body: JSON.stringify(c.body(n++)) }),
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
    for (const side of ['', '.journal', '.requests.jsonl']) {
      await rm(`${copy}${side}`, { force: true });
    }
  }
}
