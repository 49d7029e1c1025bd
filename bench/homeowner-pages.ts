// The homeowner's pages as a homeowner opens them (issue 20: pages render fast, under 50 ms). In
// process, through the whole app (createApp), on a `demo` workspace plus three more, so the
// portal token is looked for among several workspaces' jobs: a job's portal_url, an estimate's
// view_url (each opening counts a view: a write), an invoice's payment_url and the estimate and
// invoice PDFs. Each is fetched and read to the end WARMUP times untimed, then SAMPLES times
// timed; p50 and p99 are printed against 50 ms. A last line times an unknown portal token.
// Run: npx tsx bench/homeowner-pages.ts (BENCH_SAMPLES=200 by default).
import { createApp } from '../src/app';
import { createRuntime, defaultConfig } from '../src/runtime';
import { Store } from '../src/store';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const WARMUP = 20;
const TARGET_MS = 50;

type App = ReturnType<typeof createApp>;
type Rec = Record<string, unknown>;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function measure(app: App, label: string, path: string, status = 200): Promise<boolean> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const start = performance.now();
    const res = await app.request(path);
    await res.arrayBuffer();
    const ms = performance.now() - start;
    if (res.status !== status) {
      console.log(`${label}: FAIL, GET ${path} answered ${res.status}`);
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

async function json(app: App, path: string, init: RequestInit = {}): Promise<Rec> {
  const res = await app.request(path, init);
  if (res.status >= 300) {
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${await res.text()}`);
  }
  return (await res.json()) as Rec;
}

const list = async (app: App, path: string, auth: Rec): Promise<Rec[]> =>
  ((await json(app, path, { headers: auth as Record<string, string> })).data as Rec[]) ?? [];

const pathOf = (url: unknown) => new URL(String(url)).pathname;

async function main() {
  const rt = createRuntime(Store.memory(), defaultConfig({ log: () => {}, rateLimit: null }));
  const app = createApp(rt);
  const post = (body: Rec) =>
    json(app, '/__admin/workspaces', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  for (const seed of [1, 2, 3]) {
    await post({ profile: 'small', seed });
  }
  const demo = (await post({ profile: 'demo', seed: 7 })) as { keys: { write: { key: string } } };
  const auth = { Authorization: `Bearer ${demo.keys.write.key}` };
  const jobs = await list(app, '/v1/jobs?limit=100', auth);
  const estimates = await list(app, '/v1/estimates?limit=100', auth);
  const invoices = await list(app, '/v1/invoices?limit=100', auth);
  const viewed = estimates.find((e) => e.view_url !== null);
  const payable = invoices.find((i) => i.payment_url !== null);
  const job = jobs.find((j) => j.id === viewed?.job_id) ?? jobs[0];
  if (!job || !viewed || !payable) {
    throw new Error('the demo workspace has no sent estimate or payable invoice');
  }
  rt.scheduler.stop();
  console.log(
    `demo workspace: ${jobs.length}+ jobs, ${estimates.length}+ estimates, ${invoices.length}+ invoices; 3 other workspaces`,
  );
  await measure(app, 'portal_url (a job of the demo workspace)', pathOf(job.portal_url));
  await measure(app, 'view_url (counts a view each time)', pathOf(viewed.view_url));
  await measure(app, 'payment_url', pathOf(payable.payment_url));
  await measure(app, 'estimate pdf_url', pathOf(viewed.pdf_url));
  await measure(app, 'invoice pdf_url', pathOf(payable.pdf_url));
  await measure(app, 'an unknown portal token (404)', '/portal/nosuchtoken000000000000000', 404);
}

await main();
