import { Store } from '../store';
import { PgPersistence } from './persistence';

// The store on PostgreSQL put together (architecture.md, The store on PostgreSQL): every record
// read at open; and after a commit PostgreSQL did not take, the store read back whole, over and
// over until the database answers, answers being refused meanwhile (decisions.md).

const RETRY_MS = 1000;

export async function openPostgres(url: string, schema: string): Promise<Store> {
  const { persistence, data } = await PgPersistence.open(url, schema);
  const store = Store.over(data, persistence);
  persistence.onLost(() => void readBack(store, persistence));
  return store;
}

async function readBack(store: Store, persistence: PgPersistence): Promise<void> {
  for (;;) {
    try {
      await persistence.rehold();
      store.reload(await persistence.readAll());
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
