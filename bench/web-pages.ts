// Web pages as a person opens them (issue 20: "the job page of a demo workspace and the request log
// with 20,000 entries answer in under 50 ms"). In process, through the whole app (createApp): the
// job page of a `demo` workspace (GET /jobs/{id}, the job's `url`) and the inspector's request log
// (GET /inspector/requests) holding 20,000 calls made through /v1, over a store in memory and a
// request log kept in a file beside it, as `svc serve` keeps one. Each page is fetched and read to
// the end WARMUP times untimed, then SAMPLES times timed; p50 and p99 are printed against 50 ms.
// Run: npx tsx bench/web-pages.ts (BENCH_SAMPLES=200, BENCH_LOG_ENTRIES=20000 by default).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app';
import { createRuntime, defaultConfig } from '../src/runtime';
import { Store } from '../src/store';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const WARMUP = 20;
const LOG_ENTRIES = Number(process.env.BENCH_LOG_ENTRIES ?? 20_000);
const TARGET_MS = 50;

type App = ReturnType<typeof createApp>;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** Times GET `path` read to its last byte; a non-200 answer stops the bench with a FAIL. */
async function measure(app: App, label: string, path: string): Promise<boolean> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const start = performance.now();
    const res = await app.request(path);
    const body = await res.text();
    const ms = performance.now() - start;
    if (res.status !== 200) {
      console.log(`${label}: FAIL, GET ${path} answered ${res.status}: ${body.slice(0, 120)}`);
      return false;
    }
    if (i >= WARMUP) {
      times.push(ms);
    }
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const p99 = percentile(times, 99);
  const ok = p99 < TARGET_MS;
  console.log(
    `${label}: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms over ${SAMPLES} requests (target < ${TARGET_MS} ms: ${ok ? 'PASS' : 'FAIL'})`,
  );
  return ok;
}

async function json(app: App, path: string, init: RequestInit = {}) {
  const res = await app.request(path, init);
  if (res.status >= 300) {
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${await res.text()}`);
  }
  return (await res.json()) as Record<string, unknown> & { data?: Record<string, unknown>[] };
}

/** The demo workspace's job with the most notes: the fullest page the profile has. */
async function fullestJob(app: App, auth: Record<string, string>): Promise<string> {
  const jobs = (await json(app, '/v1/jobs?limit=200', { headers: auth })).data ?? [];
  let best = { url: '', notes: -1 };
  for (const job of jobs.slice(0, 40)) {
    const notes = await json(app, `/v1/jobs/${job.id}/notes?limit=200`, { headers: auth });
    if ((notes.data?.length ?? 0) > best.notes) {
      best = { url: String(job.url), notes: notes.data?.length ?? 0 };
    }
  }
  return new URL(best.url).pathname;
}

/** LOG_ENTRIES calls through /v1, of a few kinds, so the log holds what a busy session leaves. */
async function fillRequestLog(app: App, auth: Record<string, string>, jobPath: string) {
  const jobId = jobPath.split('/').pop();
  const paths = ['/v1/ping', '/v1/jobs?limit=5', `/v1/jobs/${jobId}`, '/v1/contacts?limit=5'];
  for (let i = 0; i < LOG_ENTRIES; i++) {
    const res = await app.request(paths[i % paths.length] ?? '/v1/ping', { headers: auth });
    await res.arrayBuffer();
  }
  // the log takes calls once the turn's answers are out (RequestLog.appendLater)
  await new Promise((resolve) => setImmediate(resolve));
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-web-'));
  const rt = createRuntime(
    Store.memory(),
    defaultConfig({ log: () => {}, rateLimit: null }),
    join(dir, 'data.json.requests.jsonl'),
  );
  const app = createApp(rt);
  try {
    const ws = (await json(app, '/__admin/workspaces', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ profile: 'demo', seed: 1 }),
    })) as { keys: { write: { key: string } } };
    const auth = { Authorization: `Bearer ${ws.keys.write.key}` };
    const jobPath = await fullestJob(app, auth);
    console.log(`web pages, in process; a demo workspace (seed 1), job page ${jobPath}`);
    await measure(app, 'job page (GET /jobs/{id})', jobPath);

    const fillStart = performance.now();
    await fillRequestLog(app, auth, jobPath);
    const logged = await json(app, '/__admin/requests?limit=1');
    console.log(
      `request log filled with ${LOG_ENTRIES} calls in ${((performance.now() - fillStart) / 1000).toFixed(1)} s (first listed: ${JSON.stringify(logged.data?.[0]?.path ?? null)})`,
    );
    await measure(
      app,
      `request log page, ${LOG_ENTRIES} entries (GET /inspector/requests)`,
      '/inspector/requests',
    );
  } finally {
    rt.scheduler.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
