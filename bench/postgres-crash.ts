// kill -9 trials on PostgreSQL (issue 39), run by bench/postgres-http.ts: svc serving a schema of
// its own, 10 writers creating jobs as fast as svc answers, svc killed with SIGKILL after a random
// 0.3 to 1.2 s; then every job whose 201 came back is looked for in the database. Goal: 0 lost.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { serveStore } from './server-process';

const WRITERS = 10;

export interface Trials {
  trials: number;
  acknowledged: number;
  lost: number;
}

export async function crashTrials(url: string, trials: number): Promise<Trials> {
  const sql = new pg.Pool({ connectionString: url, max: 2 });
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-crash-'));
  const out: Trials = { trials, acknowledged: 0, lost: 0 };
  try {
    for (let trial = 0; trial < trials; trial++) {
      const schema = `crash_${trial}`;
      const server = await serveStore(url, schema, dir);
      const made = (await (
        await fetch(`${server.url}/__admin/workspaces`, { method: 'POST' })
      ).json()) as { keys: { write: { key: string } } };
      const acked = await writeUntilKilled(server.url, made.keys.write.key, () => server.kill());
      const found = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${schema}.records WHERE coll = 'jobs' AND id = ANY($1)`,
        [acked],
      );
      out.acknowledged += acked.length;
      out.lost += acked.length - (found.rows[0]?.n ?? 0);
    }
  } finally {
    await sql.end();
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

/** Writers POST jobs until svc is killed; the ids of the jobs answered 201. */
async function writeUntilKilled(
  base: string,
  key: string,
  kill: () => Promise<void>,
): Promise<string[]> {
  const acked: string[] = [];
  let killed = false;
  const writer = async (w: number) => {
    for (let n = 0; !killed; n++) {
      const res = await fetch(`${base}/v1/jobs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Crash roof ${w}-${n}`, address: `${n} Crash Street` }),
      }).catch(() => undefined);
      if (res?.status === 201) {
        acked.push(((await res.json()) as { id: string }).id);
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 900));
  await kill();
  killed = true;
  await Promise.all(writers);
  return acked;
}
