import type pg from 'pg';
import { DROP, GLOBAL, type Op } from '../types';
import { secondNameOf } from './schema';

// A group of commits written to PostgreSQL (architecture.md, The store on PostgreSQL): each key's
// last word, the scopes' versions and the seq, whole or not at all. The usual group (records
// written and deleted, nothing dropped) is one statement, so one round trip: PostgreSQL runs a
// statement as a transaction of its own. A group that drops a workspace, or deletes a record and
// makes it again, is a transaction of several statements in order.

type Group = { seq: number; ops: Op[] };

/**
 * Writes `batch` whole; `dues` (a workspace's next work due, as far as the group's last commit
 * left it) goes with each scope's version, NULL where not known (a seed, a copy).
 */
export async function writeGroup(
  client: pg.ClientBase,
  s: string,
  batch: readonly Group[],
  dues: ReadonlyMap<string, number> = new Map(),
): Promise<void> {
  const { dropped, reborn, words, puts, deletes } = lastWords(batch);
  const seq = batch.at(-1)?.seq ?? 0;
  const scopes = [...new Set(words.map((w) => w.scope))];
  const scopeParams = [scopes, scopes.map((scope) => dues.get(scope) ?? null), seq];
  const columns = (ws: Word[]) => [
    ws.map((w) => w.scope),
    ws.map((w) => w.coll),
    ws.map((w) => w.id),
  ];
  const putParams = [...columns(puts), puts.map((w) => w.json), puts.map((w) => w.name)];
  if (dropped.size === 0 && reborn === 0) {
    // Its deletes and puts name other keys: the statement's parts never touch one row twice.
    await client.query(
      `WITH gone AS (${DELETE(s, 1)}), put AS (${UPSERT(s, 4)}),
            versions AS (${VERSIONS(s, 9)}) ${SEQ(s, 11)}`,
      [...columns(deletes), ...putParams, ...scopeParams],
    );
    return;
  }
  try {
    await client.query('BEGIN');
    if (dropped.size > 0) {
      const gone = [...dropped];
      await client.query(`DELETE FROM ${s}.records WHERE scope = ANY($1)`, [gone]);
      await client.query(`DELETE FROM ${s}.scopes WHERE scope = ANY($1)`, [gone]);
    }
    await client.query(DELETE(s, 1), columns(deletes));
    await client.query(UPSERT(s, 1), putParams);
    await client.query(VERSIONS(s, 1), scopeParams);
    await client.query(SEQ(s, 1), [seq]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

// Each statement with its parameters numbered from `n`.
const DELETE = (s: string, n: number) =>
  `DELETE FROM ${s}.records r USING unnest($${n}::text[], $${n + 1}::text[], $${n + 2}::text[]) AS d(scope, coll, id)
   WHERE r.scope = d.scope AND r.coll = d.coll AND r.id = d.id`;
const UPSERT = (s: string, n: number) =>
  `INSERT INTO ${s}.records (scope, coll, id, data, name)
   SELECT * FROM unnest($${n}::text[], $${n + 1}::text[], $${n + 2}::text[], $${n + 3}::json[], $${n + 4}::text[])
   ON CONFLICT (scope, coll, id) DO UPDATE SET data = excluded.data, name = excluded.name`;
// The seq is the last parameter, after the scopes and their dues.
const VERSIONS = (s: string, n: number) =>
  `INSERT INTO ${s}.scopes (scope, version, due)
   SELECT u.scope, $${n + 2}::bigint, u.due FROM unnest($${n}::text[], $${n + 1}::bigint[]) AS u(scope, due)
   ON CONFLICT (scope) DO UPDATE SET version = excluded.version, due = excluded.due`;
const SEQ = (s: string, n: number) =>
  `INSERT INTO ${s}.meta (key, value) VALUES ('seq', to_jsonb($${n}::bigint))
   ON CONFLICT (key) DO UPDATE SET value = excluded.value`;

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
