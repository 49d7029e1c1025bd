import type pg from 'pg';
import {
  type DataFileContents,
  FORMAT,
  FORMAT_VERSION,
  GLOBAL,
  type LoadedScope,
  type RawRecord,
  type Scope,
  type ScopeData,
} from '../types';

// What the PostgreSQL store reads at start and after a lost commit: every record, or the global
// scope alone with when each workspace's work falls due (architecture.md, The store on PostgreSQL).

export type Row = { coll: string; id: string; data: RawRecord };

/** Every record of schema `s` and the last commit's seq, as the data file's contents. */
export async function readAll(client: pg.ClientBase, s: string): Promise<DataFileContents> {
  const rows = await client.query<Row & { scope: string }>(
    `SELECT scope, coll, id, data FROM ${s}.records ORDER BY ord`,
  );
  return contentsOf(await readSeq(client, s), rows.rows);
}

/** The global scope's records alone (keys, workspaces, OAuth...), and the last commit's seq. */
export async function readGlobal(client: pg.ClientBase, s: string): Promise<DataFileContents> {
  const rows = await client.query<Row & { scope: string }>(
    `SELECT scope, coll, id, data FROM ${s}.records WHERE scope = $1 ORDER BY ord`,
    [GLOBAL],
  );
  return contentsOf(await readSeq(client, s), rows.rows);
}

/** A scope's version (0: never written). */
export async function readVersion(client: pg.ClientBase, s: string, scope: Scope): Promise<number> {
  const { rows } = await client.query<{ version: string }>(
    `SELECT version FROM ${s}.scopes WHERE scope = $1`,
    [scope],
  );
  return Number(rows[0]?.version ?? 0);
}

async function readSeq(client: pg.ClientBase, s: string): Promise<number> {
  const seq = await client.query<{ value: number }>(
    `SELECT value FROM ${s}.meta WHERE key = 'seq'`,
  );
  return Number(seq.rows[0]?.value ?? 0);
}

/**
 * Every workspace PostgreSQL holds or `data` lists, and when its next work is due on its own
 * clock: null where not known (a workspace a seed or a copy wrote), NOTHING_DUE where nothing is.
 */
export async function readDues(
  client: pg.ClientBase,
  s: string,
  data: DataFileContents,
): Promise<Map<Scope, number | null>> {
  const { rows } = await client.query<{ scope: string; due: string | null }>(
    `SELECT scope, due FROM ${s}.scopes WHERE scope <> $1`,
    [GLOBAL],
  );
  // Every scope written (each has its row) and every workspace listed, a copy's included.
  const dues = new Map<Scope, number | null>(
    rows.map((r) => [r.scope, r.due === null ? null : Number(r.due)]),
  );
  for (const id of Object.keys(data.global.workspaces ?? {})) {
    if (!dues.has(id)) {
      dues.set(id, null);
    }
  }
  return dues;
}

/** The rows read back as the data file's contents: every scope parsed, the global one apart. */
function contentsOf(
  seq: number,
  rows: { scope: string; coll: string; id: string; data: RawRecord }[],
): DataFileContents {
  const global: ScopeData = {};
  const workspaces: Record<string, ScopeData> = {};
  for (const { scope, coll, id, data } of rows) {
    if (scope !== GLOBAL && workspaces[scope] === undefined) {
      workspaces[scope] = {};
    }
    const into = scope === GLOBAL ? global : (workspaces[scope] as ScopeData);
    const records = into[coll] ?? {};
    into[coll] = records;
    records[id] = data;
  }
  return { format: FORMAT, version: FORMAT_VERSION, seq, global, workspaces };
}

/** What another node wrote to a scope since a version (readSince). */
export interface Catchup {
  puts: [coll: string, id: string, data: RawRecord][];
  deletes: [coll: string, id: string][];
  version: number;
}

/** One scope's records and its version, read in one statement (so as of one instant). */
export async function readScopeAt(
  pool: pg.Pool,
  s: string,
  scope: Scope,
): Promise<{ colls: LoadedScope; version: number }> {
  const { rows } = await pool.query<Partial<Row> & { version: string }>(
    `SELECT v.version, r.coll, r.id, r.data
     FROM (SELECT coalesce((SELECT version FROM ${s}.scopes WHERE scope = $1), 0) AS version) v
     LEFT JOIN ${s}.records r ON r.scope = $1 ORDER BY r.ord`,
    [scope],
  );
  const colls: Record<string, Map<string, RawRecord>> = {};
  for (const { coll, id, data } of rows) {
    if (coll === undefined || coll === null || id === undefined || data === undefined) {
      continue; // a scope with no record: its version alone
    }
    let records = colls[coll];
    if (records === undefined) {
      records = new Map();
      colls[coll] = records;
    }
    records.set(id, data);
  }
  return { colls, version: Number(rows[0]?.version ?? 0) };
}

/**
 * What another node wrote to `scope` since version `since`: the records written and the keys
 * deleted, and the version read at, in one statement.
 */
export async function readSince(
  pool: pg.Pool,
  s: string,
  scope: Scope,
  since: number,
): Promise<Catchup> {
  const { rows } = await pool.query<{
    version: string;
    coll: string | null;
    id: string | null;
    data: RawRecord | null;
    gone: boolean | null;
  }>(
    `SELECT v.version, c.coll, c.id, c.data, c.gone
     FROM (SELECT coalesce((SELECT version FROM ${s}.scopes WHERE scope = $1), 0) AS version) v
     LEFT JOIN (
       SELECT coll, id, NULL::json AS data, true AS gone, NULL::bigint AS ord
       FROM ${s}.gone WHERE scope = $1 AND version > $2
       UNION ALL
       SELECT coll, id, data, false, ord FROM ${s}.records WHERE scope = $1 AND version > $2
     ) c ON true
     ORDER BY c.ord NULLS FIRST`,
    [scope, since],
  );
  const puts: [string, string, RawRecord][] = [];
  const deletes: [string, string][] = [];
  for (const { coll, id, data, gone } of rows) {
    if (coll === null || id === null) {
      continue;
    }
    if (gone) {
      deletes.push([coll, id]);
    } else if (data !== null) {
      puts.push([coll, id, data]);
    }
  }
  return { puts, deletes, version: Number(rows[0]?.version ?? 0) };
}
