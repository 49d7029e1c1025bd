import type { Store } from '../../store';
import type { NewEntry, RequestLog } from './log';

// With several nodes on one PostgreSQL schema (architecture.md, Several nodes), the request log
// is one: each node writes its calls to the shared table as it answers them (logRequests), and
// its own log is filled from the table, every node's calls in the order they were written: before
// the log is read, after each call the node logs, and a few times a second while a live page
// watches it. Every node's log then holds the same calls in the same order, for the control API,
// the inspector, an export, a replay.

/** How often a node takes the others' calls in while a live page watches. */
const LIVE_MS = 250;
/** How often a node takes the others' calls in when nothing watches. */
const IDLE_MS = 1000;

/** An entry as the table keeps it: JSON, its answer as text. */
export function sharedEntry(entry: NewEntry): string {
  const { response } = entry;
  const text =
    'jsonBytes' in response ? { json: Buffer.from(response.jsonBytes).toString('utf8') } : response;
  return JSON.stringify({ ...entry, response: text });
}

/** Fills `log` from the shared table before each read of it, and while it is watched. */
export function shareRequests(store: Store, log: RequestLog): (() => void) | undefined {
  const shared = store.cluster?.requests;
  if (shared === undefined) {
    return undefined;
  }
  let pulling: Promise<void> | undefined;
  const pull = () => {
    pulling ??= shared
      .since()
      .then((entries) => {
        for (const text of entries) {
          log.append(JSON.parse(text) as NewEntry);
        }
      })
      .catch(() => undefined)
      .finally(() => {
        pulling = undefined;
      });
    return pulling;
  };
  // A read waits for a pull begun after it was asked: one begun before may miss a call it saw.
  log.beforeRead = async () => {
    await pulling;
    await pull();
  };
  void pull(); // from now on: calls made before this start are not taken in
  // Four times a second while a live page watches, else once a second: a read pulls first
  // anyway, and a call does not pay for a read of the table it was just written to.
  let tick = 0;
  const timer = setInterval(() => {
    tick = (tick + 1) % (IDLE_MS / LIVE_MS);
    if (store.closed) {
      clearInterval(timer);
    } else if (log.watched || tick === 0) {
      void pull();
    }
  }, LIVE_MS).unref();
  return () => {
    if (log.watched) {
      void pull();
    }
  };
}
