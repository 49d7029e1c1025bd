import { DEFAULT_KEEP } from '../residency';
import { Store } from '../store';
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

/** The store on PostgreSQL: its global scope in memory, every workspace away until used. */
export async function openPostgres(
  url: string,
  schema: string,
  keep = keepFromEnv(),
): Promise<Store> {
  const { persistence, data, dues } = await PgPersistence.open(url, schema, true);
  const store = Store.away(data, dues, persistence, persistence, keep);
  persistence.onLost(() => void readBack(store, persistence));
  return store;
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
