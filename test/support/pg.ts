import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

// PostgreSQL for the tests (issue 39). .ci/run starts a throw-away cluster (.ci/pg-cluster) and
// sets SVC_TEST_PG to its URL and SVC_REQUIRE_PG=1; a test file gets a database of its own. Where
// SVC_TEST_PG is unset (a plain `npx vitest` on a machine without PostgreSQL), the PostgreSQL half
// skips, saying so once; with SVC_REQUIRE_PG=1 a missing cluster fails instead.

export const PG_URL = process.env.SVC_TEST_PG;

export const pgAvailable = PG_URL !== undefined || process.env.SVC_REQUIRE_PG === '1';

if (!pgAvailable) {
  console.warn(
    'PostgreSQL tests skipped: no SVC_TEST_PG (.ci/run starts a cluster and sets it; or .ci/pg-cluster start)',
  );
}

/** A new database for one test file, dropped by `drop()`. */
export async function freshDatabase(
  label: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (PG_URL === undefined) {
    throw new Error('SVC_REQUIRE_PG=1 but SVC_TEST_PG is not set: is the cluster running?');
  }
  const name = `svc_${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * A database of the calling describe's own, made before its tests and dropped after them, with a
 * pool of `poolSize` connections on it for the tests' own queries.
 */
export function databaseForFile(
  label: string,
  poolSize = 2,
): { readonly url: string; readonly sql: pg.Pool } {
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    db = await freshDatabase(label);
    pool = new pg.Pool({ connectionString: db.url, max: poolSize });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });
  const made = <T>(it: T | undefined): T => {
    if (it === undefined) {
      throw new Error('the database is made before the tests: use it inside one');
    }
    return it;
  };
  return {
    get url() {
      return made(db).url;
    },
    get sql() {
      return made(pool);
    },
  };
}
