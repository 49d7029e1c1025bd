// Hail history (issue 16): GET /v1/hail_history over HTTP, the way a client meets it, and the storm
// model it reads, in process. Over HTTP: `svc serve --rate-limit off` (the 20-a-minute sub-limit
// would throttle the load), the first lookup of a fresh server (it loads the ZIP table and draws
// six years of storms), then autocannon over lookups rotating through places across the country,
// by address and by coordinates: req/s, p50, p99. In process: historyAt over five years (goal: well
// under 100 µs, since storm lists call it for thousands of properties) and 5,000 lookups in a row.
// Run: npm run bench:hail (builds dist/ first when it is missing). Quick: BENCH_SECONDS=1.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import { geography } from '../src/resources/common/geo';
import { historyAt } from '../src/resources/hail/model';
import { type Figures, fmt, load, median, ROUNDS, SECONDS } from './http-reads';
import { BIN, ensureBuilt, start } from './server-process';

/** In-process goal for one five-year lookup (µs). */
const LOOKUP_GOAL_US = 100;
const PLACES = 400;
const FROM = '2021-06-01';
const TO = '2026-05-31';

/** Places across the contiguous US that are in it (a grid, kept where a US ZIP is near). */
async function places(): Promise<{ lat: number; lon: number; address: string }[]> {
  const geo = await geography();
  const out: { lat: number; lon: number; address: string }[] = [];
  for (let i = 0; out.length < PLACES && i < PLACES * 10; i++) {
    // A low-discrepancy walk over the box: evenly spread, the same every run.
    const lat = 25 + ((i * 0.618034) % 1) * 24;
    const lon = -124 + ((i * 0.754878) % 1) * 57;
    const zip = geo.nearest(lat, lon);
    if (zip) {
      const address = `${100 + i} Main St, ${zip.city}, ${zip.state} ${zip.postal_code}`;
      out.push({ lat: Math.round(lat * 1e4) / 1e4, lon: Math.round(lon * 1e4) / 1e4, address });
    }
  }
  return out;
}

/** The write key of a fresh `empty` workspace seeded into `file`. */
function seedEmpty(file: string): string {
  const out = spawnSync(
    process.execPath,
    [BIN, 'seed', '--data', file, '--profile', 'empty', '--seed', '1', '--json'],
    { encoding: 'utf8' },
  );
  const parsed = JSON.parse(out.stdout) as { workspaces: { keys: { write: { key: string } } }[] };
  const key = parsed.workspaces[0]?.keys.write.key;
  if (!key) {
    throw new Error(`svc seed failed: ${out.stderr}`);
  }
  return key;
}

function rotating(paths: string[]): autocannon.Request[] {
  let i = 0;
  return [
    {
      method: 'GET',
      setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] as string }),
    },
  ];
}

async function overHttp(where: { lat: number; lon: number; address: string }[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-hail-'));
  try {
    const data = join(dir, 'data.json');
    const key = seedEmpty(data);
    const svc = await start([BIN, 'serve', '--data', data, '--port', '0', '--rate-limit', 'off']);
    try {
      const headers = { authorization: `Bearer ${key}` };
      const t0 = performance.now();
      const first = await fetch(`${svc.url}/v1/hail_history?latitude=35.4676&longitude=-97.5164`, {
        headers,
      });
      await first.text();
      console.log(
        `first lookup of a fresh server (ZIP table, six years of storms): ${(performance.now() - t0).toFixed(0)} ms (${first.status})\n`,
      );
      const q = (p: Record<string, string>) => `/v1/hail_history?${new URLSearchParams(p)}`;
      const cases = [
        {
          name: 'GET /v1/hail_history?latitude&longitude',
          paths: where.map((p) => q({ latitude: String(p.lat), longitude: String(p.lon) })),
        },
        {
          name: 'GET /v1/hail_history?address',
          paths: where.map((p) => q({ address: p.address })),
        },
      ];
      for (const { name, paths } of cases) {
        const requests = rotating(paths);
        await load(svc.url, { requests, headers, duration: 1 }); // warm
        const runs: Figures[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          runs.push(await load(svc.url, { requests, headers }));
        }
        const failed = runs.reduce((n, f) => n + f.errors + f.non2xx, 0);
        console.log(`${name}\n  ${fmt(median(runs))}${failed > 0 ? '  FAIL' : ''}\n`);
      }
    } finally {
      await svc.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function inProcess(where: { lat: number; lon: number }[]): void {
  for (const p of where) {
    historyAt(p.lat, p.lon, FROM, TO); // draw the years, warm the code
  }
  const perLookup: number[] = [];
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    let n = 0;
    for (let k = 0; k < 20; k++) {
      for (const p of where) {
        n += historyAt(p.lat, p.lon, FROM, TO).hail_events.length;
      }
    }
    perLookup.push(((performance.now() - t0) * 1000) / (20 * where.length));
    if (n < 0) {
      throw new Error('unreachable: keeps the loop from being optimised away');
    }
  }
  const us = [...perLookup].sort((a, b) => a - b)[2] as number;
  const verdict = us < LOOKUP_GOAL_US ? 'PASS' : 'FAIL';
  console.log(
    `historyAt, five years, in process: ${us.toFixed(1)} µs a lookup (median of 5 rounds; goal < ${LOOKUP_GOAL_US} µs): ${verdict}`,
  );
  // Storm lists: 5,000 properties, each a lookup over the list's window, in one go.
  const t0 = performance.now();
  for (let i = 0; i < 5000; i++) {
    const p = where[i % where.length] as { lat: number; lon: number };
    historyAt(p.lat + (i % 7) * 0.01, p.lon - (i % 11) * 0.01, FROM, TO);
  }
  console.log(`5,000 five-year lookups in a row: ${(performance.now() - t0).toFixed(0)} ms\n`);
}

async function main(): Promise<void> {
  ensureBuilt();
  const where = await places();
  console.log(
    `hail history: ${where.length} places across the US; ${SECONDS} s a run, ${ROUNDS} rounds\n`,
  );
  inProcess(where);
  await overHttp(where);
}

await main();
