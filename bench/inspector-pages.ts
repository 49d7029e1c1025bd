// The inspector's pages with a full request log (issue 20: "the request log with 20,000 entries
// under 50 ms"). In process, through the whole app, over a store in memory and a request log in a
// file beside it as `svc serve` keeps one: 20,000 calls through /v1 (a 404 every tenth), then the
// log page, a filtered log page (status=4xx: a scan that skips nine calls in ten), a call's own
// page for the newest and for the oldest call (the one furthest from where the log looks first),
// and the webhooks, clock and faults pages. Each is fetched WARMUP times untimed, then SAMPLES
// times timed; p50 and p99 are printed against 50 ms.
// Run: npx tsx bench/inspector-pages.ts (BENCH_SAMPLES=200, BENCH_LOG_ENTRIES=20000 by default).
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

async function measure(app: App, label: string, path: string): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const start = performance.now();
    const res = await app.request(path);
    const body = await res.text();
    const ms = performance.now() - start;
    if (res.status !== 200) {
      console.log(`${label}: FAIL, GET ${path} answered ${res.status}: ${body.slice(0, 120)}`);
      return;
    }
    if (i >= WARMUP) {
      times.push(ms);
    }
  }
  times.sort((a, b) => a - b);
  const p99 = percentile(times, 99);
  console.log(
    `${label}: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms over ${SAMPLES} (target < ${TARGET_MS} ms: ${p99 < TARGET_MS ? 'PASS' : 'FAIL'})`,
  );
}

async function json(app: App, path: string, init: RequestInit = {}) {
  const res = await app.request(path, init);
  if (res.status >= 300) {
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${await res.text()}`);
  }
  return (await res.json()) as { data?: { id: string }[]; keys?: { write: { key: string } } };
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-inspector-'));
  const rt = createRuntime(
    Store.memory(),
    defaultConfig({ log: () => {}, rateLimit: null }),
    join(dir, 'data.json.requests.jsonl'),
  );
  const app = createApp(rt);
  try {
    const ws = await json(app, '/__admin/workspaces', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ profile: 'small', seed: 1 }),
    });
    const auth = { Authorization: `Bearer ${ws.keys?.write.key}` };
    const paths = ['/v1/jobs?limit=5', '/v1/contacts?limit=5', '/v1/tasks?limit=5'];
    for (let i = 0; i < LOG_ENTRIES; i++) {
      const path =
        i % 10 === 9 ? '/v1/jobs/00000000-0000-4000-8000-000000000000' : (paths[i % 3] as string);
      await (await app.request(path, { headers: auth })).arrayBuffer();
    }
    await new Promise((resolve) => setImmediate(resolve));
    const newest = (await json(app, '/__admin/requests?limit=1')).data?.[0]?.id;
    const oldest = (await json(app, `/__admin/requests?limit=1&cursor=rq_0000000002`)).data?.[0]
      ?.id;
    console.log(`inspector pages, in process; request log of ${LOG_ENTRIES} calls`);
    await measure(app, 'request log (GET /inspector/requests)', '/inspector/requests');
    await measure(app, 'request log, status=4xx', '/inspector/requests?status=4xx');
    await measure(app, `newest call's page (${newest})`, `/inspector/requests/${newest}`);
    await measure(app, `oldest call's page (${oldest})`, `/inspector/requests/${oldest}`);
    await measure(app, 'workspaces (GET /inspector)', '/inspector');
    await measure(app, 'webhooks (GET /inspector/webhooks)', '/inspector/webhooks');
    await measure(app, 'clock (GET /inspector/clock)', '/inspector/clock');
    await measure(app, 'faults (GET /inspector/faults)', '/inspector/faults');
  } finally {
    rt.scheduler.stop();
    await rt.requestLog.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
