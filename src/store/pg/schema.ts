import pg from 'pg';

// The PostgreSQL store's schema (decisions.md, PostgreSQL): svc's own tables in a schema of their
// own (`svc` unless --store-schema names another), created on first use and versioned by a table
// of the migrations applied. svc never touches a table outside its schema.

/** The schema version this svc writes. A database at a newer one is refused, naming both. */
export const SCHEMA_VERSION = 6;

/** What each version adds, in order: migration n takes a database from n - 1 to n. */
const MIGRATIONS: readonly ((schema: string) => string)[] = [
  (s) => `
    -- Every record of every scope: the global scope ('g') and one per workspace (its id).
    CREATE TABLE ${s}.records (
      scope text NOT NULL,
      coll text NOT NULL,
      id text NOT NULL,
      data jsonb NOT NULL,
      PRIMARY KEY (scope, coll, id)
    );
    -- Each scope's version: the last change committed to it, which a node compares with its own.
    CREATE TABLE ${s}.scopes (
      scope text PRIMARY KEY,
      version bigint NOT NULL
    );
    -- The changes, in commit order: how a node learns of another node's writes.
    CREATE TABLE ${s}.changes (
      seq bigserial PRIMARY KEY,
      scopes text[] NOT NULL,
      ops jsonb NOT NULL,
      node text NOT NULL,
      at timestamptz NOT NULL DEFAULT now()
    );
    -- What the store keeps about itself (the clock's offset, what a seed made).
    CREATE TABLE ${s}.meta (
      key text PRIMARY KEY,
      value jsonb NOT NULL
    );`,
  // json, not jsonb: jsonb refuses the escape \u0000 that any string the API takes may hold, and
  // reorders an object's keys (a job's metadata read back in another order than written).
  (s) => `
    ALTER TABLE ${s}.records ALTER COLUMN data TYPE json USING data::json;
    ALTER TABLE ${s}.changes ALTER COLUMN ops TYPE json USING ops::json;`,
  // Each record's place in its collection, which memory keeps (the order it was first written)
  // and answers in where nothing else orders (the workspaces, a snapshot): kept by an update.
  (s) => `ALTER TABLE ${s}.records ADD COLUMN ord bigserial;`,
  // What a node needs to know of a workspace it has not loaded (architecture.md): which one holds
  // a record named by its id alone (the control API, a record's page) or by a second name (a
  // portal token, a subscription's deliveries), and when its next work falls due. A record's
  // second name is filled in by svc, not read out of its JSON: `->>` fails on a row holding
  // U+0000. Rows written before get theirs in the migration (nameRecords).
  (s) => `
    ALTER TABLE ${s}.records ADD COLUMN name text;
    CREATE INDEX records_by_id ON ${s}.records (id);
    CREATE INDEX records_by_name ON ${s}.records (name) WHERE name IS NOT NULL;
    ALTER TABLE ${s}.scopes ADD COLUMN due bigint;`,
  // Several nodes on one database (architecture.md, Several nodes). What a node reads to catch up
  // with another's writes: each record's version (the version of its scope that wrote it last),
  // and each record deleted, by the version that deleted it. What every node must count or take
  // as one: a key's rate window, counted by whichever node a request reaches; and a claim on a
  // piece of work (a delivery's attempt), so that one node alone does it, and another takes it
  // over once the claim lapses; an idempotency key's answer, found by whichever node the key's
  // next request reaches; each call of the request log, which every node shows; and uploaded
  // files' bytes, which every node serves.
  (s) => `
    ALTER TABLE ${s}.records ADD COLUMN version bigint NOT NULL DEFAULT 0;
    CREATE INDEX records_by_version ON ${s}.records (scope, version);
    CREATE TABLE ${s}.gone (
      scope text NOT NULL,
      coll text NOT NULL,
      id text NOT NULL,
      version bigint NOT NULL,
      PRIMARY KEY (scope, coll, id)
    );
    CREATE INDEX gone_by_version ON ${s}.gone (scope, version);
    CREATE TABLE ${s}.kept_answers (
      id text PRIMARY KEY,
      workspace_id text,
      record json NOT NULL,
      kept_at timestamptz NOT NULL
    );
    CREATE INDEX kept_answers_by_workspace ON ${s}.kept_answers (workspace_id);
    CREATE TABLE ${s}.blobs (
      scope text NOT NULL,
      id text NOT NULL,
      bytes bytea NOT NULL,
      PRIMARY KEY (scope, id)
    );
    CREATE TABLE ${s}.requests (
      seq bigserial PRIMARY KEY,
      node text NOT NULL,
      entry json NOT NULL,
      at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE ${s}.rate_windows (
      bucket text PRIMARY KEY,
      start_ms bigint NOT NULL,
      count integer NOT NULL
    );
    CREATE TABLE ${s}.claims (
      key text PRIMARY KEY,
      node text NOT NULL,
      until timestamptz NOT NULL
    );`,
  // A claim counted against its group's limit while its work runs (a subscription's 8 sends at
  // once, over every node): `grp`, and `done` once the work is over (the claim is kept past it).
  // The faults injected through the control API, which every node fires, each with the state of
  // its draws; the versions of what the nodes share outside the scopes, checked with theirs; and
  // what the web app's page after a form shows once (a secret), which may be served by any node.
  (s) => `
    ALTER TABLE ${s}.claims ADD COLUMN grp text, ADD COLUMN done boolean NOT NULL DEFAULT false;
    CREATE INDEX claims_in_flight ON ${s}.claims (grp) WHERE NOT done;
    CREATE TABLE ${s}.faults (
      id text PRIMARY KEY,
      ord bigserial NOT NULL,
      fault jsonb NOT NULL,
      draw bigint NOT NULL
    );
    CREATE TABLE ${s}.shared_versions (
      name text PRIMARY KEY,
      version bigint NOT NULL
    );
    CREATE TABLE ${s}.flashes (
      id text PRIMARY KEY,
      flash jsonb NOT NULL,
      expires timestamptz NOT NULL
    );`,
];

/**
 * A record's second name, by collection: a job is found by its portal token, the deliveries of a
 * subscription by the subscription's id (its log outlives it).
 */
export const SECOND_NAME: Readonly<Record<string, string>> = {
  jobs: 'portal_token',
  deliveries: 'webhook_id',
};

/** `rec`'s second name, if its collection gives one. */
export function secondNameOf(coll: string, rec: Readonly<Record<string, unknown>>): string | null {
  const field = SECOND_NAME[coll];
  const name = field === undefined ? undefined : rec[field];
  return typeof name === 'string' ? name : null;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A schema name as SQL names it: lower-case letters, digits and _ (not first), quoted, so even a
 * keyword (`group`) names a schema and nothing else can be written in it.
 */
export function checkSchemaName(name: string): string {
  if (!IDENTIFIER.test(name)) {
    throw new Error(
      `--store-schema must be lower-case letters, digits and _ (not first), at most 63: not ${name}`,
    );
  }
  return `"${name}"`;
}

/** The database was written by a newer svc: one line naming both versions. */
export class SchemaTooNew extends Error {}

/**
 * Brings `schema` to SCHEMA_VERSION (`to`, for the tests of an older schema), creating it on
 * first use. Two svc starting at once take turns (an advisory lock for the schema's migrations),
 * so each migration runs once.
 */
export async function migrate(
  client: pg.ClientBase,
  schema: string,
  to = SCHEMA_VERSION,
): Promise<void> {
  const s = checkSchemaName(schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`svc migrate ${schema}`]);
    // A migration of a big store may outlast the pool's statement timeout: it is not cut.
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.migrations (
        version integer PRIMARY KEY,
        svc_version text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const { rows } = await client.query<{ version: number | null; svc_version: string | null }>(
      `SELECT version, svc_version FROM ${s}.migrations ORDER BY version DESC LIMIT 1`,
    );
    const at = rows[0]?.version ?? 0;
    if (at > SCHEMA_VERSION) {
      throw new SchemaTooNew(
        `the database's schema ${schema} is at version ${at}, written by svc ${rows[0]?.svc_version}; this svc ${SVC_VERSION} knows version ${SCHEMA_VERSION}: use that svc or a newer one`,
      );
    }
    for (let version = at + 1; version <= to; version++) {
      await client.query(MIGRATIONS[version - 1]?.(s) ?? '');
      if (version === 4) {
        await nameRecords(client, s);
      }
      await client.query(`INSERT INTO ${s}.migrations (version, svc_version) VALUES ($1, $2)`, [
        version,
        SVC_VERSION,
      ]);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}

/** Rows the migration to version 4 reads at a time: memory stays small whatever the store. */
const NAMING_BATCH = 5000;

/** The second names of the rows an older version wrote, read and filled in by svc (SECOND_NAME). */
async function nameRecords(client: pg.ClientBase, s: string): Promise<void> {
  for (let after = 0; ; ) {
    const { rows } = await client.query<{ ord: string; coll: string; data: string }>(
      `SELECT ord, coll, data::text AS data FROM ${s}.records
       WHERE coll = ANY($1) AND ord > $2 ORDER BY ord LIMIT $3`,
      [Object.keys(SECOND_NAME), after, NAMING_BATCH],
    );
    if (rows.length === 0) {
      return;
    }
    after = Number(rows.at(-1)?.ord);
    const named = rows.flatMap((row) => {
      const name = secondNameOf(row.coll, JSON.parse(row.data) as Record<string, unknown>);
      return name === null ? [] : [{ ord: row.ord, name }];
    });
    await client.query(
      `UPDATE ${s}.records r SET name = u.name
       FROM unnest($1::bigint[], $2::text[]) AS u(ord, name) WHERE r.ord = u.ord`,
      [named.map((r) => r.ord), named.map((r) => r.name)],
    );
  }
}

/**
 * The advisory lock every node serving `schema` holds, shared, for as long as it serves: `svc seed
 * --store`, which would pull the records from under them, and `svc store copy`, which answers
 * from its memory alone, take it alone, so they are refused while any node serves.
 */
export const servingLock = (schema: string): string => `svc serving ${schema}`;

/** Whether `schema` is in that database (svc store copy reads only a store that is there). */
export async function schemaExists(url: string, schema: string): Promise<boolean> {
  checkSchemaName(schema);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'migrations'`,
      [schema],
    );
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

/** Empties `schema` (made first if new) for `svc seed --store`; refused while a svc serves it. */
export async function emptySchema(url: string, schema: string): Promise<void> {
  const s = checkSchemaName(schema);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await migrate(client, schema);
    const { rows } = await client.query<{ got: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS got',
      [servingLock(schema)],
    );
    if (!rows[0]?.got) {
      throw new Error(`a svc is serving schema ${schema} of that database: stop it first`);
    }
    await client.query(
      `TRUNCATE ${s}.records, ${s}.scopes, ${s}.changes, ${s}.meta, ${s}.rate_windows, ${s}.claims, ${s}.gone, ${s}.kept_answers, ${s}.requests, ${s}.blobs, ${s}.faults, ${s}.shared_versions, ${s}.flashes`,
    );
  } finally {
    await client.end();
  }
}

/** How long a node starting waits for another to finish starting (it holds the serving lock alone a moment). */
const HOLD_WAIT_MS = 5_000;

/**
 * A connection holding `schema`'s serving lock. Nodes of svc serve share it (architecture.md,
 * Several nodes: each coordinates with the others); anything else that opens the store (svc store
 * copy, a test's harness) holds it alone, since it answers from its memory alone.
 */
export async function hold(
  url: string,
  schema: string,
  shared: boolean,
): Promise<{ holder: pg.Client; alone: boolean }> {
  const holder = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  holder.on('error', () => {});
  try {
    await holder.connect();
    const lock = (mode: '' | '_shared') =>
      holder
        .query<{ got: boolean }>(`SELECT pg_try_advisory_lock${mode}(hashtext($1)) AS got`, [
          servingLock(schema),
        ])
        .then((r) => r.rows[0]?.got === true);
    // A node first asks for the lock alone: got, no other node serves. It then shares it; one
    // starting meanwhile, finding it taken alone, waits that moment out.
    const alone = shared && (await lock(''));
    let got = await lock(shared ? '_shared' : '');
    for (let waited = 0; shared && !got && waited < HOLD_WAIT_MS; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      got = await lock('_shared');
    }
    if (alone) {
      await holder.query('SELECT pg_advisory_unlock(hashtext($1))', [servingLock(schema)]);
    }
    if (!got) {
      throw new Error(
        shared
          ? `schema ${schema} of that database is being emptied or copied (svc seed, svc store copy): serve it once that is done`
          : `a svc already serves schema ${schema} of that database: stop it first`,
      );
    }
    return { holder, alone };
  } catch (err) {
    await holder.end().catch(() => {});
    throw err;
  }
}
