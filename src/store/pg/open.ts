import { DEFAULT_KEEP } from '../residency';
import { Store } from '../store';
import { GLOBAL, type Scope } from '../types';
import { PgPersistence } from './persistence';

// The store on PostgreSQL put together (architecture.md, The store on PostgreSQL): the global
// scope read at open, each workspace when first used (residency.ts); and after a commit
// PostgreSQL did not take, the store read back, over and over until the database answers,
// answers being refused meanwhile (decisions.md).

const RETRY_MS = 1000;

/**
 * The records a node keeps in memory before it lets idle workspaces go: SVC_STORE_KEEP, else
 * 200,000. A value that is not a whole number is refused, not taken for the default.
 */
export function keepFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.SVC_STORE_KEEP?.trim();
  if (text === undefined || text === '') {
    return DEFAULT_KEEP;
  }
  if (!/^\d+$/.test(text)) {
    throw new Error(`SVC_STORE_KEEP must be a whole number of records (0 or more): not ${text}`);
  }
  return Number(text);
}

/**
 * The store on PostgreSQL: its global scope in memory, every workspace away until used. With
 * `node` (svc serve), one node of as many as serve the schema (architecture.md, Several nodes).
 */
export async function openPostgres(
  url: string,
  schema: string,
  keep = keepFromEnv(),
  node?: string,
): Promise<Store> {
  const { persistence, data, dues } = await PgPersistence.open(url, schema, true, node);
  const store = Store.away(data, dues, persistence, persistence, keep);
  persistence.onLost((err) => {
    // Said, as a write refused is: the answers it covered were 500s, and memory is read back.
    process.stderr.write(`svc: ${err.message}; the store is read back from PostgreSQL\n`);
    void readBack(store, persistence);
  });
  const cluster = persistence.cluster;
  const residency = store.residency;
  if (cluster !== undefined && residency !== undefined) {
    cluster.link({
      refresh: (scopes) => readAgain(store, persistence, scopes),
      settle: () => store.sync(),
    });
    residency.coordinate = (reads, writes, turn) => cluster.begin(reads, writes, turn);
    residency.mayWrite = (scope, fresh) => cluster.mayWrite(scope, fresh);
  }
  return store;
}

/**
 * Scopes another node wrote, read again into memory. The global scope brings the workspaces made
 * meanwhile (away, read when first used) and those deleted (dropped here too). A read older than
 * what memory holds (two refreshes crossing) is not taken.
 */
async function readAgain(
  store: Store,
  persistence: PgPersistence,
  scopes: readonly Scope[],
): Promise<void> {
  const known = persistence.known;
  for (const scope of scopes) {
    if (scope === GLOBAL) {
      const { data, version } = await persistence.readGlobal();
      if (version < (known.get(GLOBAL) ?? 0)) {
        continue;
      }
      store.takeFresh(GLOBAL, { whole: data.global });
      known.set(GLOBAL, version);
      const listed = new Set(Object.keys(data.global.workspaces ?? {}));
      store.dropFresh(store.scopes().filter((ws) => !listed.has(ws)));
      for (const ws of listed) {
        store.residency?.learn(ws);
      }
      continue;
    }
    // Caught up from the version memory holds; read whole where it holds none (rows written
    // before versions were stamped on them, by a seed or a copy, are version 0).
    const since = known.get(scope) ?? 0;
    const caught = since > 0 ? await persistence.readSince(scope, since) : undefined;
    const fresh = caught ?? (await persistence.readFresh(scope));
    if (fresh.version >= (known.get(scope) ?? 0)) {
      store.takeFresh(scope, 'colls' in fresh ? { whole: fresh.colls } : fresh);
      known.set(scope, fresh.version);
    }
  }
}

async function readBack(store: Store, persistence: PgPersistence): Promise<void> {
  for (;;) {
    try {
      await persistence.rehold();
      const { data, dues } = await persistence.readGlobal();
      store.reload(data, dues);
      persistence.resume();
      return;
    } catch {
      if (persistence.closed) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
    }
  }
}
