// Invoices over HTTP, the way a client meets them (issue 15): GET /v1/invoices/{id} and
// GET /v1/invoices?limit=50 on a `large` workspace, svc against the bare route server in the same
// run (bench/http-reads.ts). Goal: the read by id at least 60% of bare, as jobs are.
// Run: npm run bench:invoices. A quick smoke run: BENCH_SECONDS=1 npm run bench:invoices.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readsOf, seedLarge } from './http-reads';
import { ensureBuilt } from './server-process';

async function main(): Promise<void> {
  ensureBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-invoices-'));
  try {
    const seeded = join(dir, 'seeded.json');
    const { workspaceId, key } = seedLarge(seeded);
    await readsOf('invoices', dir, seeded, workspaceId, key, { one: 0.6 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
