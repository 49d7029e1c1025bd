// How several nodes could order their writes to one workspace (issue 39 asks the choice be made
// from measurements; issue 40 builds it): `npm run bench:postgres-ordering`. Ten connections
// commit groups of one record each, as svc's group commit writes them (store/pg/commit.ts), for 2 s
// per variant, rounds alternating, against a cluster with fsync on:
//   none       the statement alone, as one node writes today;
//   row lock   in a transaction, the workspace's `scopes` row locked (SELECT ... FOR UPDATE) and
//              its version checked before the statement: what a node that lost a race would see;
//   advisory   in a transaction, pg_advisory_xact_lock on the workspace before the statement.
// Each on one hot workspace (every writer on it) and spread over 10. Prints commits/s and p99.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { writeGroup } from '../src/store/pg/commit';
import { migrate } from '../src/store/pg/schema';
import { ROOT } from './server-process';

// The schema's migrations name the svc that applied them: a bench runs from the sources.
(globalThis as { SVC_VERSION?: string }).SVC_VERSION ??= 'bench';

const CLUSTER = join(ROOT, '.ci', 'pg-cluster');
const WRITERS = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = 2;
const SCHEMA = 'ordering';
const S = `"${SCHEMA}"`;

type Variant = 'none' | 'row lock' | 'advisory';
const VARIANTS: Variant[] = ['none', 'row lock', 'advisory'];

/** One group commit of one job to `scope`, ordered as `variant` orders it. */
async function commit(client: pg.PoolClient, variant: Variant, scope: string, seq: number) {
  const batch = [{ seq, ops: [[scope, 'jobs', `j${seq}`, { id: `j${seq}`, n: seq }] as never] }];
  if (variant === 'none') {
    await writeGroup(client, S, batch);
    return;
  }
  await client.query('BEGIN');
  try {
    if (variant === 'row lock') {
      const { rows } = await client.query<{ version: string }>(
        `SELECT version FROM ${S}.scopes WHERE scope = $1 FOR UPDATE`,
        [scope],
      );
      // A node whose memory is older than this version would load the scope again and retry.
      void rows[0]?.version;
    } else {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [scope]);
    }
    await writeGroup(client, S, batch);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}

let seq = 0;

async function run(pool: pg.Pool, variant: Variant, scopes: readonly string[]) {
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      const client = await pool.connect();
      try {
        while (performance.now() < until) {
          const t = performance.now();
          await commit(client, variant, scopes[w % scopes.length] as string, ++seq);
          latencies.push(performance.now() - t);
        }
      } finally {
        client.release();
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / SECONDS,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  };
}

async function main(): Promise<void> {
  const out = spawnSync(CLUSTER, ['start', '--durable'], { encoding: 'utf8' });
  const [url, cluster] = out.stdout.trim().split(' ') as [string, string];
  process.on('exit', () => void spawnSync(CLUSTER, ['stop', cluster], { stdio: 'ignore' }));
  const pool = new pg.Pool({ connectionString: url, max: WRITERS });
  try {
    const client = await pool.connect();
    try {
      await migrate(client, SCHEMA);
    } finally {
      client.release();
    }
    const spread = Array.from({ length: 10 }, (_, i) => `ws${i}`);
    const layouts = { 'one workspace': ['ws0'], '10 workspaces': spread };
    const results = new Map<string, { perSecond: number; p99: number }[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [layout, scopes] of Object.entries(layouts)) {
        for (const variant of round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
          const key = `${layout}, ${variant}`;
          results.set(key, [...(results.get(key) ?? []), await run(pool, variant, scopes)]);
        }
      }
    }
    console.log(
      `bench:postgres-ordering: ${WRITERS} connections committing one record a group, ${SECONDS} s a run, ${ROUNDS} rounds, fsync on\n`,
    );
    for (const [key, runs] of results) {
      const rate = runs.map((r) => Math.round(r.perSecond).toLocaleString('en-US')).join(', ');
      const p99 = runs.map((r) => r.p99.toFixed(1)).join(', ');
      console.log(`${key}: ${rate} commits/s; p99 ${p99} ms`);
    }
  } finally {
    await pool.end();
  }
}

await main();
process.exit(0);
