// A CI workspace's life on a shared server (issue 37): on a svc holding 1,000 workspaces, each
// round makes a workspace from a snapshot, makes 50 calls in it, moves its clock a month and
// deletes it. Prints p50 and p99 of each step against the goals (create from a snapshot < 20 ms,
// delete < 20 ms, a month's move of an idle workspace's clock < 50 ms), and how fast another
// workspace's reads answer meanwhile, against the same reads with nothing else running. In
// process, over a data file on disk, so each write's answer includes its group commit.
// Run: npm run bench:workspaces   (BENCH_WORKSPACES=1000, BENCH_ROUNDS=40)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/app';
import { createRuntime, defaultConfig } from '../src/runtime';
import { Store } from '../src/store';
import { type App, call } from './app-call';

(globalThis as { SVC_VERSION?: string }).SVC_VERSION ??= 'bench';

const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const MONTH_S = 30 * 24 * 3600;

const at = (list: number[], q: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

async function timedMs(work: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}

/** The 50 calls a CI test makes: lists, reads and writes of jobs, contacts and notes. */
async function fiftyCalls(app: App, key: string): Promise<void> {
  const jobs = JSON.parse(await call(app, 'GET', '/v1/jobs?limit=10', undefined, key)).data as {
    id: string;
  }[];
  for (let i = 0; i < 12; i++) {
    const job = JSON.parse(
      await call(app, 'POST', '/v1/jobs', { name: `CI ${i}`, address: '1 Main St' }, key),
    );
    await call(app, 'GET', `/v1/jobs/${job.id}`, undefined, key);
    await call(app, 'PATCH', `/v1/jobs/${job.id}`, { name: `CI ${i} again` }, key);
    await call(app, 'GET', `/v1/jobs?limit=20`, undefined, key);
  }
  await call(app, 'GET', `/v1/jobs/${jobs[0]?.id}`, undefined, key);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-life-'));
  try {
    const { store } = await Store.open(join(dir, 'data.json'));
    const rt = createRuntime(store, defaultConfig({ log: () => {}, rateLimit: null }));
    const app = createApp(rt);
    const first = JSON.parse(await call(app, 'POST', '/__admin/workspaces', { profile: 'small' }));
    const snapshot = await call(app, 'GET', `/__admin/workspaces/${first.id}/snapshot`);
    const fromSnapshot = `{"snapshot":${snapshot}}`;
    const t0 = performance.now();
    const others: { id: string; key: string }[] = [{ id: first.id, key: first.keys.read.key }];
    while (others.length < WORKSPACES) {
      const made = JSON.parse(await call(app, 'POST', '/__admin/workspaces', fromSnapshot));
      others.push({ id: made.id, key: made.keys.read.key });
    }
    console.log(
      `${WORKSPACES} workspaces of the small profile made in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    // Another workspace's reads, alone: the baseline. Each read goes to the next workspace in a
    // fixed stride, warm from a first pass over all of them, so both runs read alike.
    let next = 0;
    const reads = async (n: number) => {
      const ms: number[] = [];
      for (let i = 0; i < n; i++) {
        next = (next + 7919) % others.length;
        const other = others[next] as { key: string };
        ms.push(await timedMs(() => call(app, 'GET', '/v1/jobs?limit=20', undefined, other.key)));
      }
      return ms;
    };
    await reads(others.length);
    const alone = await reads(400);

    const steps = { create: [] as number[], calls: [] as number[], month: [] as number[] };
    const remove: number[] = [];
    const meanwhile: number[] = [];
    let running = true;
    const reader = (async () => {
      while (running) {
        meanwhile.push(...(await reads(5)));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (let round = 0; round < ROUNDS; round++) {
      let made: { id: string; keys: { write: { key: string } } } | undefined;
      steps.create.push(
        await timedMs(async () => {
          made = JSON.parse(await call(app, 'POST', '/__admin/workspaces', fromSnapshot));
        }),
      );
      const ws = made as { id: string; keys: { write: { key: string } } };
      steps.calls.push(await timedMs(() => fiftyCalls(app, ws.keys.write.key)));
      steps.month.push(
        await timedMs(() =>
          call(app, 'POST', `/__admin/workspaces/${ws.id}/clock`, { advance_seconds: MONTH_S }),
        ),
      );
      remove.push(await timedMs(() => call(app, 'DELETE', `/__admin/workspaces/${ws.id}`)));
    }
    running = false;
    await reader;

    const line = (name: string, ms: number[], goal?: number) => {
      const p50 = at(ms, 0.5);
      const p99 = at(ms, 0.99);
      const verdict =
        goal === undefined
          ? ''
          : p50 < goal
            ? `  PASS (< ${goal} ms)`
            : `  FAIL (goal < ${goal} ms)`;
      console.log(
        `${name.padEnd(28)} p50 ${p50.toFixed(1).padStart(6)} ms   p99 ${p99.toFixed(1).padStart(6)} ms${verdict}`,
      );
    };
    console.log(`\na CI workspace's life, ${ROUNDS} rounds, among ${WORKSPACES} workspaces:`);
    line('create from a snapshot', steps.create, 20);
    line('50 calls', steps.calls);
    line("a month's clock move", steps.month, 50);
    line('delete', remove, 20);
    console.log(`\nanother workspace's GET /v1/jobs?limit=20:`);
    line('alone', alone);
    line('while the lives ran', meanwhile);
    console.log(
      `ratio of p50s (meanwhile / alone): ${(at(meanwhile, 0.5) / at(alone, 0.5)).toFixed(2)}`,
    );
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
