// The data file bench/sustained.ts serves: a `--profile large` workspace resized to N jobs with
// everything a job brings (resizeJobs), compacted, with no journal left beside it. Run in a child
// process of its own so the bench that measures latencies never holds a 100k-job store in its
// heap (its collections would pause the probe). Usage: tsx bench/sustained-store.ts SEEDED OUT
// WORKSPACE_ID JOBS, where SEEDED is `svc seed --profile large` output.
import { copyFile, rename, rm, stat } from 'node:fs/promises';
import { Store } from '../src/store';
import { resizeJobs } from './job-records';

const [seeded, out, workspaceId, jobs] = process.argv.slice(2);
if (!seeded || !out || !workspaceId || !jobs) {
  throw new Error('usage: sustained-store.ts SEEDED OUT WORKSPACE_ID JOBS');
}
const tmp = `${out}.building`;
await copyFile(seeded, tmp);
const { store } = await Store.open(tmp);
store.transaction((tx) => resizeJobs(tx, workspaceId, Number(jobs)));
await store.close(); // writes the final snapshot: everything is in the data file itself
const journal = await stat(`${tmp}.journal`).catch(() => undefined);
if (journal && journal.size > 0) {
  throw new Error(`${tmp}.journal still holds ${journal.size} bytes after close`);
}
await rm(`${tmp}.journal`, { force: true });
await rename(tmp, out);
