import pg from 'pg';
import type { TestProject } from 'vitest/node';

// The `postgres` project's database (vitest.config.ts): made once for the run, each harness a
// schema of its own in it (test-store.ts), dropped at the end.

const name = `svc_harness_${process.pid}`;

export async function setup(project: TestProject): Promise<void> {
  const url = clusterUrl();
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  url.pathname = `/${name}`;
  project.provide('pgHarnessUrl', url.toString());
}

export function teardown(): Promise<void> {
  return admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
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
