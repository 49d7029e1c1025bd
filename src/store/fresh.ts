import {
  type Change,
  type LoadedScope,
  type Op,
  type RawRecord,
  type Rec,
  type Scope,
  SpanRecords,
} from './types';

// A scope another node wrote (architecture.md, Several nodes), read again from PostgreSQL: what
// differs from memory, as the ops that bring memory to it and the changes they make, so that
// whatever follows commits (the clocks, the delivery worker) follows another node's as its own.

/** A scope read again: whole, or what was written since memory's version. */
export type Fresh =
  | { whole: LoadedScope }
  | {
      puts: readonly (readonly [coll: string, id: string, data: RawRecord])[];
      deletes: readonly (readonly [coll: string, id: string])[];
    };

/** `scope`'s records as memory holds them, by collection. */
export type Held = (coll: string) => ReadonlyMap<string, Rec> | undefined;

/** The ops and changes that bring `held` (collections `colls`) to `fresh`. */
export function freshOps(
  scope: Scope,
  held: Held,
  heldColls: readonly string[],
  fresh: LoadedScope,
): { ops: Op[]; changes: Change[] } {
  const ops: Op[] = [];
  const changes: Change[] = [];
  const note = (
    coll: string,
    id: string,
    before: Rec | undefined,
    after: RawRecord | undefined,
  ) => {
    ops.push(after === undefined ? [scope, coll, id] : [scope, coll, id, after]);
    changes.push({ scope, coll, id, before, after: after as Rec | undefined });
  };
  for (const [coll, records] of Object.entries(fresh)) {
    const before = held(coll);
    for (const [id, rec] of entries(records)) {
      const was = before?.get(id);
      if (was === undefined || JSON.stringify(was) !== JSON.stringify(rec)) {
        note(coll, id, was, rec);
      }
    }
  }
  for (const coll of heldColls) {
    const records = fresh[coll];
    for (const [id, was] of held(coll) ?? []) {
      if (records === undefined || !has(records, id)) {
        note(coll, id, was, undefined);
      }
    }
  }
  return { ops, changes };
}

type Records = LoadedScope[string];

// PostgreSQL's records are never a data file's bytes (SpanRecords): those read as none.
function entries(records: Records): Iterable<[string, RawRecord]> {
  if (records instanceof Map) {
    return records;
  }
  return records instanceof SpanRecords ? [] : Object.entries(records);
}

function has(records: Records, id: string): boolean {
  if (records instanceof Map) {
    return records.has(id);
  }
  return !(records instanceof SpanRecords) && Object.hasOwn(records, id);
}

/**
 * The ops and changes of what another node wrote since memory's version: its records written,
 * and its keys deleted (a key written again since is written, not deleted).
 */
export function caughtUpOps(
  scope: Scope,
  held: Held,
  puts: readonly (readonly [string, string, RawRecord])[],
  deletes: readonly (readonly [string, string])[],
): { ops: Op[]; changes: Change[] } {
  const ops: Op[] = [];
  const changes: Change[] = [];
  const written = new Set(puts.map(([coll, id]) => `${coll}\u0000${id}`));
  for (const [coll, id] of deletes) {
    const was = held(coll)?.get(id);
    if (was !== undefined && !written.has(`${coll}\u0000${id}`)) {
      ops.push([scope, coll, id]);
      changes.push({ scope, coll, id, before: was, after: undefined });
    }
  }
  for (const [coll, id, rec] of puts) {
    ops.push([scope, coll, id, rec]);
    changes.push({ scope, coll, id, before: held(coll)?.get(id), after: rec as Rec });
  }
  return { ops, changes };
}
