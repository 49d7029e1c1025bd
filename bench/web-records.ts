// The record pages of the web app, rendered in-process (app.request, as the tests do: what a page
// costs svc, without a socket): the job page of a `demo` workspace's busiest job (issue 20: under
// 50 ms), that workspace's page, a pin's map and the dashboard. Each page is asked for 500 times
// after 50 untimed warm-up requests; p50 and p99 are printed, PASS when p99 is under 50 ms.
// Run: npx tsx bench/web-records.ts
import { createApp } from '../src/app';
import { createRuntime, defaultConfig } from '../src/runtime';
import { Store } from '../src/store';

const RUNS = Number(process.env.BENCH_RUNS ?? 500);
const WARM = 50;
const TARGET_MS = 50;

const rt = createRuntime(Store.memory(), defaultConfig({ log: () => {}, rateLimit: null }));
const app = createApp(rt);

async function json(path: string, init?: RequestInit & { key?: string }) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (init?.key) {
    headers.Authorization = `Bearer ${init.key}`;
  }
  const res = await app.request(`http://localhost${path}`, { ...init, headers });
  return (await res.json()) as Record<string, unknown> & { data: Record<string, unknown>[] };
}

async function busiestJob(key: string): Promise<string> {
  const jobs = (await json('/v1/jobs?limit=100', { key })).data;
  let best = '';
  let most = -1;
  for (const job of jobs) {
    let n = 0;
    for (const list of ['notes', 'files', 'estimates', 'invoices', 'payments', 'tasks']) {
      n += (await json(`/v1/jobs/${job.id}/${list}?limit=100`, { key })).data.length;
    }
    if (n > most) {
      most = n;
      best = String(job.id);
    }
  }
  return best;
}

async function time(path: string): Promise<{ p50: number; p99: number; bytes: number }> {
  let bytes = 0;
  const took: number[] = [];
  for (let i = 0; i < WARM + RUNS; i++) {
    const start = performance.now();
    const res = await app.request(`http://localhost${path}`);
    const text = await res.text();
    const ms = performance.now() - start;
    if (res.status !== 200) {
      throw new Error(`${path} answered ${res.status}`);
    }
    bytes = text.length;
    if (i >= WARM) {
      took.push(ms);
    }
  }
  took.sort((a, b) => a - b);
  const at = (q: number) => took[Math.min(took.length - 1, Math.floor(q * took.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), bytes };
}

async function main() {
  const ws = (await json('/__admin/workspaces', {
    method: 'POST',
    body: JSON.stringify({ profile: 'demo', seed: 1 }),
  })) as unknown as { id: string; keys: { write: { key: string } } };
  const key = ws.keys.write.key;
  const job = await busiestJob(key);
  const pin = String((await json('/v1/pins?limit=1', { key })).data[0]?.id);
  const pages: [string, string][] = [
    ['job page (demo, busiest job)', `/jobs/${job}`],
    ['workspace page (demo)', `/workspaces/${ws.id}`],
    ['pin map (demo)', `/map?pin=${pin}`],
    ['dashboard', '/'],
  ];
  let pass = true;
  for (const [name, path] of pages) {
    const f = await time(path);
    const ok = f.p99 < TARGET_MS;
    pass &&= ok;
    console.log(
      `${name.padEnd(30)} p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(2)} ms  ${(f.bytes / 1024).toFixed(0)} KB  ${ok ? 'PASS' : 'FAIL'}`,
    );
  }
  console.log(
    `${pass ? 'PASS' : 'FAIL'}: every page's p99 under ${TARGET_MS} ms (${RUNS} requests each)`,
  );
  rt.scheduler.stop();
}

void main();
