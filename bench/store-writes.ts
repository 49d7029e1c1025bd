// Durable write throughput of the store with 1,000 and with 50,000 records already in it.
// A write counts once `await store.sync()` (the journal's group commit, fdatasync) resolved for
// it. Each phase writes enough for its journal to outgrow the snapshot, so compaction is measured,
// not estimated: the large store writes a 100 MB snapshot inside its timed window. The phases
// alternate for two rounds in one process and the ratio is taken between their medians, so
// machine noise hits both alike. Run: npm run bench:store
import { copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Store } from '../src/store';
import { type BenchJob, jobFactory, putJob } from './job-records';
import { ensureBuilt, ROOT } from './server-process';

// Compactions fold in the built worker thread, as in svc (src/store/compactor.ts).
ensureBuilt();
(globalThis as { SVC_DIST?: string }).SVC_DIST = join(ROOT, 'dist');

const PREFILLS = [1_000, 50_000] as const;
const ROUNDS = 2;
/** Timed writes per phase: ~126 MB of journal, past the 50,000-record snapshot's 101 MB. */
const WRITES = 60_000;
/** Untimed durable writes first, so every phase starts with the JIT and the file warm. */
const WARMUP = 500;
/** Concurrent writers: many transactions share each fdatasync, as requests do in svc. */
const WRITERS = 48;
const RECORD_SIZE = { min: 1_900, max: 2_300 };
/** Mirrors MIN_COMPACT_BYTES in src/store/persistence.ts (printed, not enforced). */
const MIN_COMPACT_BYTES = 8 * 1024 * 1024;
const TARGET_RATIO = 0.5;
const WORKSPACE = '0b3c1d9e-5a41-4e0f-9c55-000000000001';

/** A compacted data file holding `records - WARMUP` jobs, copied afresh for every round. */
interface Template {
  records: number;
  path: string;
  compactMs: number;
}

interface Timed {
  seconds: number;
  latenciesMs: Float64Array;
  journalPeak: number;
  compactions: number;
}

interface PhaseResult extends Timed {
  round: number;
  records: number;
  dataFileBytes: number;
}

/**
 * One transaction for all the records. Its journal line outgrows the threshold, so the sync
 * already compacts it into the data file; closing compacts once more, timed as a sample of
 * what one compaction of this file costs.
 */
async function buildTemplate(dir: string, records: number): Promise<Template> {
  const path = join(dir, `template-${records}.json`);
  const { store } = await Store.open(path);
  const make = jobFactory(records, RECORD_SIZE);
  store.transaction((tx) => {
    for (let i = 0; i < records - WARMUP; i++) {
      putJob(tx, WORKSPACE, make());
    }
  });
  await store.sync();
  const started = performance.now();
  await store.close();
  return { records, path, compactMs: performance.now() - started };
}

/** Durable writes from WRITERS concurrent loops; watches the journal as it goes. */
async function durableWrites(store: Store, jobs: readonly BenchJob[]): Promise<Timed> {
  const latenciesMs = new Float64Array(jobs.length);
  let next = 0;
  let journalPeak = store.journalBytes;
  let journalLast = store.journalBytes;
  let compactions = 0;
  const writer = async () => {
    for (let i = next++; i < jobs.length; i = next++) {
      const job = jobs[i];
      if (job === undefined) {
        break;
      }
      const started = performance.now();
      store.transaction((tx) => putJob(tx, WORKSPACE, job));
      await store.sync();
      latenciesMs[i] = performance.now() - started;
      // The journal only ever shrinks when a compaction emptied it.
      const bytes = store.journalBytes;
      compactions += bytes < journalLast ? 1 : 0;
      journalPeak = Math.max(journalPeak, bytes);
      journalLast = bytes;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, writer));
  const seconds = (performance.now() - started) / 1000;
  return { seconds, latenciesMs, journalPeak, compactions };
}

/** Opens a fresh copy of the template, warms up, then times WRITES durable writes. */
async function runPhase(dir: string, template: Template, round: number): Promise<PhaseResult> {
  const runDir = join(dir, `run-${template.records}-${round}`);
  const path = join(runDir, 'data.json');
  await mkdir(runDir);
  await copyFile(template.path, path);
  const { store } = await Store.open(path);
  try {
    // A seed of its own per round: new ids, never the template's.
    const make = jobFactory(template.records * 100 + round, RECORD_SIZE);
    // Generated before any timing: making fake data is not the store's cost.
    const warmup = Array.from({ length: WARMUP }, make);
    const timed = Array.from({ length: WRITES }, make);
    await durableWrites(store, warmup);
    const dataFileBytes = (await stat(path)).size;
    const result = await durableWrites(store, timed);
    return { ...result, round, records: template.records, dataFileBytes };
  } finally {
    await store.close();
    await rm(runDir, { recursive: true, force: true });
  }
}

const rate = (r: PhaseResult) => r.latenciesMs.length / r.seconds;
const threshold = (r: PhaseResult) => Math.max(MIN_COMPACT_BYTES, r.dataFileBytes);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const count = (n: number) => Math.round(n).toLocaleString('en-US');

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
}

function printPhase(r: PhaseResult): void {
  const sorted = Float64Array.from(r.latenciesMs).sort();
  const cells = [
    String(r.round).padStart(5),
    count(r.records).padStart(7),
    mb(r.dataFileBytes).padStart(10),
    count(rate(r)).padStart(9),
    percentile(sorted, 0.5).toFixed(1).padStart(6),
    percentile(sorted, 0.99).toFixed(1).padStart(6),
    percentile(sorted, 1).toFixed(0).padStart(6),
    `${mb(r.journalPeak)} / ${mb(threshold(r))}`.padStart(25),
    String(r.compactions).padStart(11),
  ];
  console.log(cells.join(' '));
}

function printRatio(label: string, small: number, large: number): void {
  const ratio = large / small;
  const verdict = ratio >= TARGET_RATIO ? 'PASS' : 'FAIL';
  console.log(
    `${label} 50,000 / 1,000 = ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}): ${verdict}`,
  );
}

function report(templates: Template[], results: PhaseResult[]): void {
  console.log(
    'round records  data file records/s p50 ms p99 ms max ms   journal peak / threshold compactions',
  );
  for (const r of results) {
    printPhase(r);
  }
  const medians: number[] = [];
  console.log('\nmedian records/s:');
  for (const template of templates) {
    const rates = results.filter((r) => r.records === template.records).map(rate);
    medians.push(median(rates));
    console.log(`${count(template.records).padStart(7)}: ${count(median(rates))}`);
  }
  const [small, large] = medians;
  if (small && large) {
    console.log('');
    printRatio('ratio of medians:', small, large);
  }
}

async function main(): Promise<void> {
  console.log(
    `store-writes: ${count(WRITES)} durable writes per phase (after ${WARMUP} warm-up), ` +
      `${WRITERS} concurrent writers, records ${RECORD_SIZE.min}-${RECORD_SIZE.max} B JSON, ` +
      `put + await store.sync() each; ${ROUNDS} rounds, phases alternating\n`,
  );
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-store-'));
  try {
    const templates: Template[] = [];
    for (const records of PREFILLS) {
      templates.push(await buildTemplate(dir, records));
    }
    const results: PhaseResult[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const template of templates) {
        results.push(await runPhase(dir, template, round));
      }
    }
    report(templates, results);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
