// Snapshots, measured (issue 19): restoring a `demo` workspace in place with
// PUT /__admin/workspaces/{id}/snapshot, and making a fresh `small` workspace with
// POST /__admin/workspaces, from the profile and from a snapshot. In process, over a data file on
// disk, so each answer includes its group commit (fdatasync). Each restore follows a write, so it
// has something to undo. Prints medians and p90s; goals: restore under 20 ms, fresh under 10 ms.
// Run: npm run bench:snapshots
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/app';
import { createRuntime, defaultConfig } from '../src/runtime';
import { Store } from '../src/store';
import { call } from './app-call';

// The build and vitest define it; tsx runs the sources as they are.
(globalThis as { SVC_VERSION?: string }).SVC_VERSION ??= 'bench';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const WARMUP = 5;

// Wall time, and the process's CPU time over the same span: on this shared machine the wall
// time waits for other processes, the CPU time is what the work itself cost (fsync waits aside).
async function timed(rounds: number, before: () => Promise<unknown>, work: () => Promise<unknown>) {
  const ms: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < rounds + WARMUP; i++) {
    await before();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await work();
    const used = process.cpuUsage(c0);
    if (i >= WARMUP) {
      ms.push(performance.now() - t0);
      cpu.push((used.user + used.system) / 1000);
    }
  }
  const at = (list: number[], q: number) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  };
  return { median: at(ms, 0.5), p90: at(ms, 0.9), cpu: at(cpu, 0.5) };
}

const fmt = (r: { median: number; p90: number; cpu: number }) =>
  `median ${r.median.toFixed(1)} ms, p90 ${r.p90.toFixed(1)} ms, CPU median ${r.cpu.toFixed(1)} ms`;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-snap-'));
  try {
    const { store } = await Store.open(join(dir, 'data.json'));
    const rt = createRuntime(store, defaultConfig({ log: () => {}, rateLimit: null }));
    const app = createApp(rt);
    const demo = JSON.parse(await call(app, 'POST', '/__admin/workspaces', { profile: 'demo' }));
    const demoSnap = await call(app, 'GET', `/__admin/workspaces/${demo.id}/snapshot`);
    const records = Object.values(
      JSON.parse(demoSnap).collections as Record<string, unknown[]>,
    ).reduce((n, list) => n + list.length, 0);
    const restore = await timed(
      ROUNDS,
      () => call(app, 'POST', '/v1/contacts', { first_name: 'Undone' }, demo.keys.write.key),
      () => call(app, 'PUT', `/__admin/workspaces/${demo.id}/snapshot`, demoSnap),
    );
    const small = JSON.parse(await call(app, 'POST', '/__admin/workspaces', { profile: 'small' }));
    const smallSnap = await call(app, 'GET', `/__admin/workspaces/${small.id}/snapshot`);
    const noop = () => Promise.resolve();
    const fromProfile = await timed(ROUNDS, noop, () =>
      call(app, 'POST', '/__admin/workspaces', { profile: 'small' }),
    );
    const fromSnapshot = await timed(ROUNDS, noop, () =>
      call(app, 'POST', '/__admin/workspaces', `{"snapshot":${smallSnap}}`),
    );
    await store.close();
    const kb = (text: string) => `${Math.round(Buffer.byteLength(text) / 1024)} KB`;
    console.log(`demo workspace: ${records} records, snapshot ${kb(demoSnap)}`);
    console.log(`  restore in place (PUT .../snapshot):    ${fmt(restore)}  (goal < 20 ms)`);
    console.log(`small workspace: snapshot ${kb(smallSnap)}`);
    console.log(`  fresh from the profile (POST {profile}): ${fmt(fromProfile)}  (goal < 10 ms)`);
    console.log(`  fresh from a snapshot (POST {snapshot}): ${fmt(fromSnapshot)}  (goal < 10 ms)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
