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
  /** Sort keys, ascending; `#ids` holds each one's id at the same place (no slicing to read it). */
  readonly #keys: string[];
  readonly #ids: string[];

  constructor(records: Iterable<Rec>) {
    const pairs = Array.from(records, (rec): [string, string] => [orderKey(rec), rec.id]);
    pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.#keys = pairs.map(([key]) => key);
    this.#ids = pairs.map(([, id]) => id);
  }

  get size(): number {
    return this.#keys.length;
  }

  add(rec: Rec): void {
    const key = orderKey(rec);
    const at = this.#lowerBound(key);
    this.#keys.splice(at, 0, key);
    this.#ids.splice(at, 0, rec.id);
  }

  remove(rec: Rec): void {
    const key = orderKey(rec);
    const at = this.#lowerBound(key);
    if (this.#keys[at] === key) {
      this.#keys.splice(at, 1);
      this.#ids.splice(at, 1);
    }
  }

  /** Ids newest first, starting strictly after `from` when given. */
  *newestFirst(from?: Position): Generator<string> {
    const start = from
      ? this.#lowerBound(keyOf(from.created_at, from.id)) - 1
      : this.#keys.length - 1;
    for (let i = start; i >= 0; i--) {
      yield this.#ids[i] as string;
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
