import type { Position, Rec } from './types';

// Keeps a collection's ids sorted by (created_at, id) so lists page newest first by keyset:
// records added while a client pages land before its cursor and are never skipped or repeated.
const keyOf = (createdAt: string, id: string) => `${createdAt}\u0000${id}`;
/** A record's created_at, for ordering; records without one sort by id alone. */
export const createdAt = (rec: Rec): string => {
  const value = (rec as { created_at?: unknown }).created_at;
  return typeof value === 'string' ? value : '';
};

export const orderKey = (rec: Rec) => keyOf(createdAt(rec), rec.id);

export class OrderIndex {
  readonly #keys: string[];

  constructor(records: Iterable<Rec>) {
    this.#keys = Array.from(records, orderKey).sort();
  }

  add(rec: Rec): void {
    const key = orderKey(rec);
    this.#keys.splice(this.#lowerBound(key), 0, key);
  }

  remove(rec: Rec): void {
    const key = orderKey(rec);
    const at = this.#lowerBound(key);
    if (this.#keys[at] === key) {
      this.#keys.splice(at, 1);
    }
  }

  /** Ids newest first, starting strictly after `from` when given. */
  *newestFirst(from?: Position): Generator<string> {
    const start = from
      ? this.#lowerBound(keyOf(from.created_at, from.id)) - 1
      : this.#keys.length - 1;
    for (let i = start; i >= 0; i--) {
      const key = this.#keys[i] as string;
      yield key.slice(key.indexOf('\u0000') + 1);
    }
  }

  #lowerBound(key: string): number {
    let lo = 0;
    let hi = this.#keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#keys[mid] as string) < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
