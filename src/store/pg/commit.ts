import type pg from 'pg';
import { DROP, GLOBAL, type Op } from '../types';
import { secondNameOf } from './schema';

// A group of commits written to PostgreSQL (architecture.md, The store on PostgreSQL): each key's
// last word and the scopes' versions, whole or not at all. The usual group (records
// written and deleted, nothing dropped) is one statement, so one round trip: PostgreSQL runs a
// statement as a transaction of its own. A group that drops a workspace, or deletes a record and
// makes it again, is a transaction of several statements in order.

type Group = { seq: number; ops: Op[] };

/** Each scope a group wrote, and the version it is at now. */
export type Versions = Map<string, number>;

/**
 * Writes `batch` whole; `dues` (a workspace's next work due, as far as the group's last commit
 * left it) goes with each scope's version, NULL where not known (a seed, a copy). With `expected`
 * (several nodes may serve the schema: architecture.md, Several nodes), each scope written must
 * still be at the version memory holds of it (0: none yet), or nothing is written: a node that
 * wrote without its lease, or whose lease went with its connection, never overwrites another's
 * writes.
 */
export async function writeGroup(
  client: pg.ClientBase,
  s: string,
  batch: readonly Group[],
  dues: ReadonlyMap<string, number> = new Map(),
  expected?: (scope: string) => number,
): Promise<Versions> {
  const { dropped, reborn, words, puts, deletes } = lastWords(batch);
  const scopes = [...new Set(words.map((w) => w.scope))];
  const scopeParams = [
    scopes,
    scopes.map((scope) => dues.get(scope) ?? null),
    scopes.map((scope) => expected?.(scope) ?? null),
  ];
  const strict = expected !== undefined;
  // Each row is stamped with the version its scope is written at (known only strict: else 0, and
  // a node that reads the store catches up by reading it whole).
  const versionOf = (scope: string) => (expected === undefined ? 0 : expected(scope) + 1);
  const columns = (ws: Word[]) => [
    ws.map((w) => w.scope),
    ws.map((w) => w.coll),
    ws.map((w) => w.id),
  ];
  const stamps = (ws: Word[]) => ws.map((w) => versionOf(w.scope));
  const deleteParams = [...columns(deletes), stamps(deletes)];
  const putParams = [
    ...columns(puts),
    puts.map((w) => w.json),
    puts.map((w) => w.name),
    stamps(puts),
  ];
  if (dropped.size === 0 && reborn === 0) {
    // Its deletes and puts name other keys: the statement's parts never touch one row twice. A
    // version not as expected divides by zero: the whole statement, and so the group, is undone.
    const { rows } = await client
      .query<{ versions: [string, string][] | null; ok: number }>(
        `WITH deleted AS (${DELETE(s, 1)}), tombs AS (${TOMBS(s, 1)}), put AS (${UPSERT(s, 5)}),
            versions AS (${VERSIONS(s, 11, strict)})
       SELECT (SELECT json_agg(json_build_array(scope, version)) FROM versions) AS versions,
              1 / ((SELECT count(*) FROM versions) = $14)::int AS ok`,
        [...deleteParams, ...putParams, ...scopeParams, scopes.length],
      )
      .catch((err: { code?: string }) => {
        throw err.code === DIVISION_BY_ZERO ? new VersionConflict(scopes) : err;
      });
    return versionsOf(rows[0]?.versions ?? null);
  }
  try {
    await client.query('BEGIN');
    if (dropped.size > 0) {
      const gone = [...dropped];
      await client.query(`DELETE FROM ${s}.records WHERE scope = ANY($1)`, [gone]);
      await client.query(`DELETE FROM ${s}.scopes WHERE scope = ANY($1)`, [gone]);
      await client.query(`DELETE FROM ${s}.gone WHERE scope = ANY($1)`, [gone]);
    }
    await client.query(DELETE(s, 1), columns(deletes));
    await client.query(TOMBS(s, 1), deleteParams);
    await client.query(UPSERT(s, 1), putParams);
    const { rows } = await client.query<{ scope: string; version: string }>(
      VERSIONS(s, 1, strict),
      scopeParams,
    );
    if (rows.length !== scopes.length) {
      throw new VersionConflict(scopes.filter((scope) => !rows.some((r) => r.scope === scope)));
    }
    await client.query('COMMIT');
    return versionsOf(rows.map((r) => [r.scope, r.version]));
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/** A scope was written by another node since memory read it: the group was not written. */
export class VersionConflict extends Error {
  constructor(scopes: readonly string[]) {
    super(`another node wrote ${scopes.join(', ')} since this one read it`);
  }
}

const DIVISION_BY_ZERO = '22012';

function versionsOf(rows: readonly (readonly [string, string | number])[] | null): Versions {
  return new Map((rows ?? []).map(([scope, version]) => [scope, Number(version)]));
}

// Each statement with its parameters numbered from `n`.
const DELETE = (s: string, n: number) =>
  `DELETE FROM ${s}.records r USING unnest($${n}::text[], $${n + 1}::text[], $${n + 2}::text[]) AS d(scope, coll, id)
   WHERE r.scope = d.scope AND r.coll = d.coll AND r.id = d.id`;
// A record deleted leaves its key, by the version that deleted it (several nodes catch up by it).
const TOMBS = (s: string, n: number) =>
  `INSERT INTO ${s}.gone (scope, coll, id, version)
   SELECT * FROM unnest($${n}::text[], $${n + 1}::text[], $${n + 2}::text[], $${n + 3}::bigint[])
   ON CONFLICT (scope, coll, id) DO UPDATE SET version = excluded.version`;
const UPSERT = (s: string, n: number) =>
  `INSERT INTO ${s}.records (scope, coll, id, data, name, version)
   SELECT * FROM unnest($${n}::text[], $${n + 1}::text[], $${n + 2}::text[], $${n + 3}::json[], $${n + 4}::text[], $${n + 5}::bigint[])
   ON CONFLICT (scope, coll, id) DO UPDATE SET
     data = excluded.data, name = excluded.name, version = excluded.version`;
// A scope's version counts the groups that wrote it. Strict, the row is written only where it is
// still at the version expected (the row's lock makes the check and the write one step): a new
// row is expected at 0.
const VERSIONS = (s: string, n: number, strict: boolean) =>
  `INSERT INTO ${s}.scopes AS c (scope, version, due)
   SELECT u.scope, coalesce(u.expected, 0) + 1, u.due
   FROM unnest($${n}::text[], $${n + 1}::bigint[], $${n + 2}::bigint[]) AS u(scope, due, expected)
   ON CONFLICT (scope) DO UPDATE SET
     version = ${strict ? 'excluded.version' : 'c.version + 1'}, due = excluded.due
   ${strict ? 'WHERE c.version + 1 = excluded.version' : ''}
   RETURNING c.scope, c.version`;

type Word = { scope: string; coll: string; id: string; json: string | null; name: string | null };

/** One key's last word in a group: its record as JSON text, or null for a delete. */
type LastWord = Map<string, Word>;

/**
 * A group's writes as PostgreSQL takes them: the workspaces dropped, and each key's last word,
 * in the order memory holds them (a row keeps its place, `ord`, when updated; a record deleted
 * and made again goes last, as in memory, by a delete before its insert).
 */
function lastWords(batch: readonly Group[]) {
  const dropped = new Set<string>();
  const last: LastWord = new Map();
  const reborn = new Set<string>();
  for (const { ops } of batch) {
    for (const [scope, coll, id, rec, json] of ops) {
      if (coll === DROP) {
        dropped.add(scope);
        continue;
      }
      const key = `${scope}\u0000${coll}\u0000${id}`;
      if (rec !== undefined && last.get(key)?.json === null) {
        last.delete(key);
        reborn.add(key);
      }
      last.set(key, {
        scope,
        coll,
        id,
        json: rec === undefined ? null : (json ?? JSON.stringify(rec)),
        name: rec === undefined || scope === GLOBAL ? null : secondNameOf(coll, rec),
      });
    }
  }
  const kept = [...last].filter(([, w]) => !dropped.has(w.scope));
  const words = kept.map(([, w]) => w);
  return {
    dropped,
    reborn: reborn.size,
    words,
    puts: words.filter((w) => w.json !== null),
    deletes: kept.filter(([key, w]) => w.json === null || reborn.has(key)).map(([, w]) => w),
  };
}
