import pg from 'pg';
import type { TestProject } from 'vitest/node';

// The database of a project on PostgreSQL (vitest.config.ts, `postgres` and `nodes`): made once
// for the run, each harness a schema of its own in it (test-store.ts, test-nodes.ts), dropped at
// the end.

/** Made for the run, dropped by the teardown returned. */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A database per project (`postgres`, `nodes`): each set up and torn down on its own.
  const name = `svc_${project.name}_${process.pid}`;
  const url = clusterUrl();
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  url.pathname = `/${name}`;
  project.provide('pgHarnessUrl', url.toString());
  return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

function clusterUrl(): URL {
  const url = process.env.SVC_TEST_PG;
  if (url === undefined) {
    throw new Error('SVC_REQUIRE_PG=1 but SVC_TEST_PG is not set: is the cluster running?');
  }
  return new URL(url);
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: clusterUrl().toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
