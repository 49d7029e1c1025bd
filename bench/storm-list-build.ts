// A storm list of 5,000 properties built as the app builds one: POST
// /__admin/workspaces/{id}/storm_lists, then the clock moved past the build's time, which runs the
// build (candidates, hail history at each, owners and mailing data) and commits the list and its
// 5,000 properties in one transaction to a data file on disk. Timed from the clock move's request
// to its answer (the commit fsynced), in-process, on a fresh workspace each round; the pure build
// (no store) is timed beside it. Target: the median under one second. Run: npm run bench:storm-lists
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app';
import { centralDate } from '../src/resources/common/central-time';
import { geography } from '../src/resources/common/geo';
import { swathsNear } from '../src/resources/hail/model';
import { type BuildRequest, buildList } from '../src/resources/storm-lists/build';
import { BUILD_SECONDS } from '../src/resources/storm-lists/service';
import { createRuntime, defaultConfig } from '../src/runtime';
import { Store } from '../src/store';

const PROPERTIES = 5000;
const ROUNDS = 5;
const TARGET_MS = 1000;
const RADIUS_MI = 25;
/** Hail-belt cities: one of them had a storm big enough in the past year. */
const CENTRES = [
  { name: 'Oklahoma City', latitude: 35.4676, longitude: -97.5164 },
  { name: 'Dallas', latitude: 32.7767, longitude: -96.797 },
  { name: 'Wichita', latitude: 37.6872, longitude: -97.3301 },
  { name: 'Tulsa', latitude: 36.154, longitude: -95.9928 },
  { name: 'Omaha', latitude: 41.2565, longitude: -95.9345 },
  { name: 'Denver', latitude: 39.7392, longitude: -104.9903 },
];

const DAY_MS = 86_400_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** A one-day storm of the past year over one of the centres with at least PROPERTIES houses. */
async function findStorm(todayMs: number): Promise<{ where: string; req: BuildRequest }> {
  const geo = await geography();
  const to = centralDate(todayMs - DAY_MS);
  const from = centralDate(todayMs - 360 * DAY_MS);
  for (const c of CENTRES) {
    const days = new Map<string, number>();
    for (const s of swathsNear(c.latitude, c.longitude, RADIUS_MI, from, to)) {
      days.set(s.date, (days.get(s.date) ?? 0) + s.width_mi * s.peak_size_in);
    }
    const ranked = [...days].sort((a, b) => b[1] - a[1]).slice(0, 4);
    for (const [date] of ranked) {
      const req: BuildRequest = {
        window_from: date,
        window_to: date,
        min_size_in: 1,
        property_cap: PROPERTIES,
        area: {
          kind: 'radius',
          latitude: c.latitude,
          longitude: c.longitude,
          radius_mi: RADIUS_MI,
        },
      };
      if (buildList(req, geo, new Set()).total_available >= PROPERTIES) {
        return { where: `${c.name}, ${date}`, req };
      }
    }
  }
  throw new Error(`no storm of the past year has ${PROPERTIES} properties near the centres`);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-storm-'));
  const { store } = await Store.open(join(dir, 'data.json'));
  const rt = createRuntime(store, defaultConfig({ log: () => {}, rateLimit: null }));
  const app = createApp(rt);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(`/__admin${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) {
      throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
    }
    return json;
  };
  try {
    const { where, req } = await findStorm(rt.clock.nowMs());
    const geo = await geography();
    const pure: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t = performance.now();
      buildList(req, geo, new Set());
      pure.push(performance.now() - t);
    }
    const timed: number[] = [];
    let count = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const ws = await call('POST', '/workspaces', { name: `Bench ${i}` });
      const list = await call('POST', `/workspaces/${ws.id}/storm_lists`, {
        name: 'Bench storm',
        window_from: req.window_from,
        window_to: req.window_to,
        min_size_in: req.min_size_in,
        property_cap: PROPERTIES,
        area: req.area,
      });
      const t = performance.now();
      await call('POST', '/clock', { advance_seconds: BUILD_SECONDS });
      timed.push(performance.now() - t);
      const done = rt.store.workspace(String(ws.id)).get('storm_lists', String(list.id));
      count = done?.property_count ?? 0;
      if (done?.status !== 'partial' && done?.status !== 'ready') {
        throw new Error(`the build ended ${done?.status}`);
      }
    }
    const ms = median(timed);
    console.log(`storm: ${where}, ${RADIUS_MI}-mile circle, hail of 1" or more`);
    console.log(`properties on the list: ${count}`);
    console.log(
      `pure build (candidates, hail, counts): median ${median(pure).toFixed(0)} ms, min ${Math.min(...pure).toFixed(0)} ms`,
    );
    console.log(
      `build on the clock, committed and fsynced: median ${ms.toFixed(0)} ms, min ${Math.min(...timed).toFixed(0)} ms, max ${Math.max(...timed).toFixed(0)} ms (${ROUNDS} rounds)`,
    );
    console.log(
      `${count >= PROPERTIES && ms < TARGET_MS ? 'PASS' : 'FAIL'}: a list of ${PROPERTIES} properties in under ${TARGET_MS} ms`,
    );
  } finally {
    rt.scheduler.stop();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
