import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { storeFiles } from './persistence';
import { Store } from './store';
import { GLOBAL, type Rec } from './types';

// `svc store copy` (DESIGN.md, Shared servers, stores and tests): a whole store moved from a
// data file to PostgreSQL or back (or file to file, database to database). The destination is
// replaced; the source is read alone, under its lock, and left as it was.

/** One side of a copy: a data file, or a PostgreSQL database and schema. */
export type StoreAt = { file: string } | { url: string; schema: string };

export interface Copied {
  workspaces: number;
  records: number;
}

async function open(at: StoreAt): Promise<Store> {
  return 'file' in at ? (await Store.open(at.file)).store : Store.openPostgres(at.url, at.schema);
}

/** Empties the destination: a data file's files gone, a schema's tables emptied. */
async function empty(at: StoreAt): Promise<void> {
  if ('file' in at) {
    for (const file of storeFiles(at.file)) {
      await rm(file, { force: true });
    }
    return;
  }
  const { emptySchema } = await import('./pg/schema');
  await emptySchema(at.url, at.schema);
}

/** A source that is not there is refused, not read as an empty store that empties the destination. */
async function mustExist(at: StoreAt): Promise<void> {
  if ('file' in at) {
    if (!storeFiles(at.file).some((file) => existsSync(file))) {
      throw new Error(`no data file at ${at.file}`);
    }
    return;
  }
  const { schemaExists } = await import('./pg/schema');
  if (!(await schemaExists(at.url, at.schema))) {
    throw new Error(`that database has no schema ${at.schema}`);
  }
}

/** Copies every record of `from` into `to`, replacing what `to` held: one transaction a scope. */
export async function copyStore(from: StoreAt, to: StoreAt): Promise<Copied> {
  await mustExist(from);
  const source = await open(from);
  try {
    await empty(to);
    const target = await open(to);
    try {
      let records = 0;
      const scopes = [GLOBAL, ...source.scopes()];
      for (const scope of scopes) {
        // A PostgreSQL source loads each workspace in turn, and lets it go past its budget.
        await source.ensure(scope);
        target.transaction(
          (tx) => {
            const into = tx.scope<Record<string, Rec>>(scope);
            for (const coll of source.collections(scope)) {
              for (const rec of source.values(scope, coll)) {
                into.put(coll, rec);
                records += 1;
              }
            }
          },
          // A copy is not something that happened in a workspace: no event is raised.
          { quiet: true },
        );
        await target.sync();
        source.residency?.trim();
        target.residency?.trim();
      }
      return { workspaces: scopes.length - 1, records };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
